"""Moves from the board: every action is a plain form (PRG) enhanced by htmx; refused
moves show the sentence and change nothing."""

from __future__ import annotations

import pytest

from games.models import Game, Move
from tests.games.pages.conftest import DECK, act, play_passing, table_make

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def post(client, game, data, **extra):
    return client.post(f"/games/{game.pk}/act/", data, **extra)


def unchanged(game):
    fresh = Game.objects.get(pk=game.pk)
    return (
        fresh.version == game.version
        and fresh.state == game.state
        and Move.objects.filter(game=game).count() == game.version
    )


def test_plain_bid_redirects_to_the_board(client, table, alice):
    client.force_login(alice)
    response = post(
        client, table, {"version": table.version, "type": "bid", "cards": ["3000", "1000"]}
    )
    assert response.status_code == 302 and response["Location"] == f"/games/{table.pk}/"
    game = Game.objects.get(pk=table.pk)
    assert game.version == table.version + 1
    assert Move.objects.get(game=game).action["cards"] in ([1000, 3000], [3000, 1000])
    html = client.get(response["Location"]).content.decode()
    assert "Alice bids" in html and "(total 4,000)" in html


def test_htmx_bid_answers_with_the_new_board_partial(client, table, alice):
    client.force_login(alice)
    response = post(
        client, table, {"version": table.version, "type": "bid", "cards": ["2000"]}, **HX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="board"') and "<html" not in html
    assert "Waiting for Bob." in html and "2,000" in html


def test_pass_with_ticked_cards_just_passes(client, table, alice):
    client.force_login(alice)
    post(client, table, {"version": table.version, "type": "pass", "cards": ["1000"]})
    move = Move.objects.get(game=table)
    assert move.action["type"] == "pass"


def test_stale_version_shows_the_conflict_and_changes_nothing(client, table, alice, bob):
    client.force_login(alice)
    seen = table.version
    act(table, alice, type="bid", cards=[1000])  # e.g. in another tab
    act(table, bob, type="pass")
    game = Game.objects.get(pk=table.pk)
    client.force_login(bob)
    response = post(client, game, {"version": seen, "type": "bid", "cards": ["2000"]}, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "The game has moved on since you loaded it" in html
    assert unchanged(game)
    plain = post(client, game, {"version": seen, "type": "bid", "cards": ["2000"]})
    assert plain.status_code == 400 and "moved on" in plain.content.decode()
    assert unchanged(game)


def test_a_bid_refused_as_out_of_date_keeps_its_ticks_for_its_own_auction_only(
    client, table, alice, bob, carol
):
    """A page without JavaScript: Alice ticks 2,000 for Luxury 3, which meanwhile
    goes to somebody (another tab of hers bid, the others passed) and the next card
    comes up.  Her refused bid used to come back with 2,000 still ticked and Bid
    ready, one click from spending it on a card she never chose to bid on."""
    import re

    def ticked(html: str) -> list[str]:
        return re.findall(r'<input[^>]*name="cards"[^>]*value="(\d+)"[^>]*checked', html)

    client.force_login(alice)
    form = {"version": table.version, "for_auction": 1, "type": "bid", "cards": ["2000"]}
    act(table, alice, type="bid", cards=[1000])  # in another tab
    act(table, bob, type="pass")
    act(table, carol, type="bid", cards=[2000])
    same = post(client, table, form, **HX).content.decode()
    assert "moved on" in same and ticked(same) == ["2000"]  # still Luxury 3's auction
    act(table, alice, type="bid", cards=[3000])  # the other tab again
    act(table, carol, type="pass")  # Alice takes Luxury 3, and opens the next auction
    game = Game.objects.get(pk=table.pk)
    assert game.engine_state().auction_number == 2
    gone = post(client, game, form)
    assert gone.status_code == 400 and "moved on" in gone.content.decode()
    assert ticked(gone.content.decode()) == []
    assert unchanged(game)


def test_repeated_submission_makes_no_second_move(client, table, alice):
    """Sent again from the same page, the same move is answered as made (it was); any
    other move from that page is refused as late."""
    client.force_login(alice)
    data = {"version": table.version, "type": "bid", "cards": ["1000"]}
    assert post(client, table, data).status_code == 302
    assert post(client, table, data).status_code == 302
    assert Move.objects.filter(game=table).count() == 1
    again = post(client, table, {**data, "type": "pass"})
    assert again.status_code == 400 and "moved on" in again.content.decode()
    assert Move.objects.filter(game=table).count() == 1


def test_too_low_bid_shows_the_engine_sentence_and_keeps_the_selection(client, table, alice, bob):
    act(table, alice, type="bid", cards=[8000])
    game = Game.objects.get(pk=table.pk)
    client.force_login(bob)
    response = post(
        client, game, {"version": game.version, "type": "bid", "cards": ["4000", "2000"]}, **HX
    )
    html = response.content.decode()
    assert "Your bid must total more than 8,000; yours would be 6,000." in html
    # Also under the hand, beside the buttons just pressed, marked as a refusal.
    preview = html[html.index('<p id="bid-preview" class="preview preview--no"') :]
    assert "Your bid must total more than 8,000; yours would be 6,000." in preview.split("</p>")[0]
    assert (
        'value="4000" id="hand-4000" checked' in html
        and 'value="2000" id="hand-2000" checked' in html
    )
    assert 'value="1000" id="hand-1000">' in html
    assert unchanged(game)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "bid", "cards": ["7000"]}, "Choose money cards from your hand."),
        ({"type": "bid", "cards": ["abc"]}, "Choose money cards from your hand."),
        ({"type": "bid", "cards": ["-1000"]}, "Choose money cards from your hand."),
        ({"type": "bid"}, "Choose at least one money card to bid."),
        ({"type": "bid", "cards": ["1000", "1000"]}, "You listed the 1,000 card twice."),
        ({"type": "steal", "cards": ["1000"]}, "Choose what to do"),
        ({"cards": ["1000"]}, "Choose what to do"),
        ({"type": "discard", "card": "lux3"}, "There is no Theft for you to resolve now."),
        ({"type": "discard"}, "Choose one of your luxury cards"),
        ({"type": "sealed_bid", "card": "1000"}, "There is no Yacht Club auction now."),
        ({"type": "sealed_bid", "card": "x" * 5000}, "Ensure this value has at most 20 characters"),
        (
            {"type": "sealed_bid", "card": "999"},
            "Choose one money card from your hand for the Yacht Club.",
        ),
        # A field sent twice (a forged or garbled post): refused, not its last value.
        ({"type": ["bid", "pass"], "cards": ["1000"]}, "several values for one field"),
        ({"type": "discard", "card": ["lux3", "lux5"]}, "several values for one field"),
    ],
)
def test_bad_input_gives_a_message_and_changes_nothing(client, table, alice, data, message):
    client.force_login(alice)
    response = post(client, table, {"version": table.version, **data})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="flash flash--error"' in html
    assert message in html
    assert unchanged(table)


@pytest.mark.parametrize("version", ["", "abc", "-1", "1.5", "9" * 40, "<script>"])
def test_bad_version_is_a_message_not_a_500(client, table, alice, version):
    client.force_login(alice)
    response = post(client, table, {"version": version, "type": "pass"})
    assert response.status_code == 400
    assert "This page is out of date; reload it and try again." in response.content.decode()
    assert unchanged(table)


def test_not_your_turn(client, table, bob):
    client.force_login(bob)
    response = post(client, table, {"version": table.version, "type": "pass"}, **HX)
    assert "flash--error" in response.content.decode()
    assert "turn" in response.content.decode()
    assert unchanged(table)


def test_outsider_cannot_move(client, table, dave):
    client.force_login(dave)
    response = post(client, table, {"version": table.version, "type": "pass"})
    assert response.status_code == 400
    assert "You do not have a seat at this table." in response.content.decode()
    assert unchanged(table)


def test_anonymous_post_goes_to_log_in(client, table):
    response = post(client, table, {"version": table.version, "type": "pass"})
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/games/{table.pk}/"
    hx = post(client, table, {"version": table.version, "type": "pass"}, **HX)
    assert (
        hx.status_code == 200 and hx["HX-Redirect"] == f"/accounts/login/?next=/games/{table.pk}/"
    )
    assert hx.content == b""
    assert unchanged(table)


def test_act_is_post_only_and_unknown_game_is_404(client, table, alice):
    client.force_login(alice)
    assert client.get(f"/games/{table.pk}/act/").status_code == 405
    assert client.post("/games/987654/act/", {"version": 0, "type": "pass"}).status_code == 404


def test_misfortune_auction_words_and_pass_takes_it(client, host, bob, carol):
    deck = ["debt", *[c for c in DECK if c != "debt"]]
    game = table_make(host, [bob, carol], deck=deck)
    client.force_login(host)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Misfortune — the first to pass takes it" in html
    assert "Pass and take Debt (−5)" in html and "Bid to avoid it" in html
    post(client, game, {"version": game.version, "type": "pass"})
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Alice takes Debt (−5) and keeps their money." in html


def test_theft_choice_is_buttons_per_luxury(client, host, bob, carol):
    deck = ["lux3", "lux7", "theft", *[c for c in DECK if c not in ("lux3", "lux7", "theft")]]
    game = table_make(host, [bob, carol], deck=deck)
    users = {0: host, 1: bob, 2: carol}
    # Alice bids on Luxury 3 and 7 and wins both; then she passes first on Theft.
    game = play_passing(game, users, until=lambda s: True)
    act(game, host, type="bid", cards=[1000])
    act(game, bob, type="pass")
    act(game, carol, type="pass")
    act(game, host, type="bid", cards=[2000])
    act(game, bob, type="pass")
    act(game, carol, type="pass")
    act(game, host, type="pass")  # takes Theft, owns two luxuries: must choose
    game = Game.objects.get(pk=game.pk)
    client.force_login(host)
    html = client.get(f"/games/{game.pk}/").content.decode()
    # Her turn, said as every turn is, and the Theft panel speaks to her.
    assert "Your turn: choose one of your luxuries for Theft to discard." in html
    assert "Theft — you discard a luxury" in html and "Alice discards" not in html
    assert 'name="card" value="lux3"' in html and 'name="card" value="lux7"' in html
    response = post(
        client, game, {"version": game.version, "type": "discard", "card": "lux3"}, **HX
    )
    assert "Theft: Alice discards Luxury 3 (their choice)." in response.content.decode()
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'name="card" value="lux7"' not in html  # only the owner chooses


def test_sealed_yacht_club_choice_then_waiting(client, host, bob, carol):
    deck = ["yacht", *DECK]
    game = table_make(host, [bob, carol], deck=deck, advanced=["yacht"])
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Yacht Club — sealed choice" in html
    assert "Yacht Club: choose one money card in secret." in html
    assert 'name="type" value="sealed_bid"' in html and 'name="card" value="25000"' in html
    # Two cards in one forged post: refused, nothing chosen (the last value was taken).
    twice = {"version": game.version, "type": "sealed_bid", "card": ["1000", "2000"]}
    refused = post(client, game, twice)
    assert refused.status_code == 400 and "several values for one field" in refused.content.decode()
    assert unchanged(game)
    response = post(
        client, game, {"version": game.version, "type": "sealed_bid", "card": "6000"}, **HX
    )
    html = response.content.decode()
    assert "You chose 6,000. Waiting for Alice and Carol to choose." in html
    assert 'name="type" value="sealed_bid"' not in html
    client.force_login(carol)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Has chosen" in html and "6,000" not in html.split('id="tray-title"')[0]


def test_a_misfortune_bid_to_beat_is_named_in_the_headline(client, host, bob, carol):
    """Once someone has bid to avoid the card, the headline says how much beats it, as
    a luxury's does; before any bid it asks only for a bid."""
    deck = ["debt", *[c for c in DECK if c != "debt"]]
    game = table_make(host, [bob, carol], deck=deck)
    client.force_login(host)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Your turn: bid to avoid Debt (−5), or pass and take it." in html
    act(game, host, type="bid", cards=[3000])
    act(game, bob, type="bid", cards=[4000])
    act(game, carol, type="bid", cards=[6000])
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Your turn: bid more than 6,000 to avoid Debt (−5), or pass and take it." in html
    assert "· 103,000</span>" in html  # the hand's worth beside its size: 106,000 − 3,000


def test_a_yacht_club_choice_sent_twice_is_answered_as_made(client, host, bob, carol):
    """The second sending of a sealed choice (others still choosing) was refused as
    "not your turn", over the choice made by the first."""
    game = table_make(host, [bob, carol], deck=["yacht", *DECK], advanced=["yacht"])
    client.force_login(bob)
    choice = {"version": game.version, "type": "sealed_bid", "card": "6000"}
    assert post(client, game, choice).status_code == 302
    again = post(client, game, choice)
    assert again.status_code == 302 and again["Location"] == f"/games/{game.pk}/"
    other = post(client, game, {**choice, "card": "1000"})  # another choice: refused
    assert other.status_code == 400


@pytest.mark.parametrize(
    ("deck", "legend"),
    [
        ("lux5 lux6 lux7", "Tick the cards to add to your bid for Luxury 5"),
        ("debt lux6 lux7", "Tick the cards to add to your bid to avoid Debt"),
    ],
)
def test_the_hand_names_the_card_it_bids_for(client, dora, alice, bob, deck, legend):
    """On a phone the card up is a screen above the hand, on one's turn: the hand's own
    legend names it."""
    from tests.games.factories import people_game, scenario_deck

    game = people_game(dora, alice, bob, deck=scenario_deck(deck), first_player=0)
    client.force_login(dora)
    assert legend in client.get(f"/games/{game.pk}/").content.decode()
