"""What the whole-game browser tests do as people do it: sign up through the real form
and the confirmation link from the e-mail, and wait for the server to store a move."""

from __future__ import annotations

import re
import time

from django.core import mail

from accounts.models import User
from games.models import Game


def sign_up(page, base: str, username: str, password: str):
    """Sign up as ``username`` and confirm the address by the e-mail's link; returns
    that e-mail."""
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.click("main form button[type=submit]")
    message = next(m for m in reversed(mail.outbox) if m.to == [f"{username}@example.com"])
    path = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", message.body).group(1)
    page.goto(base + path)
    page.click("main form button[type=submit]")
    assert User.objects.get(username=username).emailaddress_set.get().verified
    return message


def wait_for_version(game_id: int, before: int, timeout: float = 15.0) -> Game:
    """The game once a move past ``before`` is stored (the bots answer after a commit)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = Game.objects.get(pk=game_id)
        if game.version > before:
            return game
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} stayed at version {before}")


def give_up_card(button) -> None:
    """A Theft discard or a secret Yacht Club choice: the first tap marks the card, the
    second sends it (board.js)."""
    button.click()
    button.click()
