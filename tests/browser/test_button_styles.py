"""Buttons look like what they do, on <button> elements as on links: the stylesheet
styles every <button>, and a variant class (outline for a secondary action, danger for
a destructive one, small) must still win over that rule."""

from __future__ import annotations

import pytest

from accounts.tokens.services import token_create

pytestmark = pytest.mark.django_db(transaction=True)


def style_of(locator) -> dict[str, str]:
    return locator.evaluate(
        "e => { const s = getComputedStyle(e);"
        " return {background: s.backgroundColor, color: s.color, height: s.height}; }"
    )


def colour_of(page, variable: str) -> str:
    """A custom property of the stylesheet, as the browser computes it as a colour."""
    return page.evaluate(
        """name => { const probe = document.createElement('span');
        probe.style.color = `var(${name})`; document.body.append(probe);
        const colour = getComputedStyle(probe).color; probe.remove(); return colour; }""",
        variable,
    )


def test_variant_classes_win_on_button_elements(live_server, new_page, log_in, alice):
    token_create(user=alice, name="my bot")
    page = log_in(new_page(), alice)

    page.goto(f"{live_server.url}/accounts/profile/")
    plain = style_of(page.locator("button", has_text="Start my vacation"))
    outline = style_of(page.get_by_role("button", name="Sign out everywhere else"))
    assert plain["background"] == colour_of(page, "--primary")
    # A secondary action: outlined, not filled like the primary "Save".
    assert outline["background"] == "rgba(0, 0, 0, 0)"
    assert outline["color"] == colour_of(page, "--primary")

    page.goto(f"{live_server.url}/accounts/profile/tokens/")
    page.get_by_text("Revoke “my bot”…").click()  # one more step before it is gone
    revoke = page.get_by_role("button", name="Revoke “my bot”")
    # Destructive: the danger colour, and small beside the token's facts.
    assert style_of(revoke)["background"] == colour_of(page, "--danger")
    assert float(style_of(revoke)["height"].removesuffix("px")) < float(
        plain["height"].removesuffix("px")
    )
