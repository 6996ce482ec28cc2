"""Table chat (issue #14): who may write, what is stored, the limits, muting, and
where the messages show: the board (refreshed with it), the API and the turn e-mail."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.chat import CHAT_BURST, chat_mute, chat_post
from games.engine import seats_to_act
from games.errors import NotAllowed, NotYourSeat, TooSoon
from games.models import ChatMessage, Game, Seat
from games.selectors import chat_lines, chat_open_to
from games.services import game_leave
from tests.games.factories import GameFactory, people_game, scenario_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(dora, alice, bob):
    """Dora (staff: the deck is fixed), Alice and Bob at a running table."""
    return people_game(dora, alice, bob, deck=scenario_deck("lux5 lux3"), first_player=0)


def test_players_chat_and_the_text_is_stored_as_one_clean_line(game, alice, bob):
    chat_post(game=game, user=alice, text="  Good luck,\r\n\tall!\x00 ")
    chat_post(game=game, user=bob, text="<b>Thanks</b> & you")
    lines = chat_lines(game=game, user=bob)
    assert [(line.author, line.text, line.is_you) for line in lines] == [
        ("Alice", "Good luck, all!", False),
        ("Bob", "<b>Thanks</b> & you", True),
    ]
    assert Game.objects.get(pk=game.pk).chat_at == ChatMessage.objects.last().created_at


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("", "Write a message first."),
        ("   \n ", "Write a message first."),
        ("x" * 301, "at most 300"),
        (None, "must be text"),
    ],
)
def test_an_empty_or_long_message_is_refused_and_nothing_stored(game, alice, text, phrase):
    with pytest.raises(NotAllowed, match=phrase):
        chat_post(game=game, user=alice, text=text)
    assert not ChatMessage.objects.exists()
    assert Game.objects.get(pk=game.pk).chat_at is None


def test_only_the_players_at_the_table_chat(game, dave, alice):
    with pytest.raises(NotYourSeat, match="Only the players at this table"):
        chat_post(game=game, user=dave, text="hi")
    assert not chat_open_to(game, dave) and chat_open_to(game, alice)
    assert not chat_open_to(game, None)


def test_an_invited_player_who_has_not_accepted_cannot_chat(alice, bob, carol):
    table = GameFactory(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    with pytest.raises(NotYourSeat):
        chat_post(game=table, user=bob, text="hi")
    chat_post(game=table, user=alice, text="waiting for one more")


def test_an_abandoned_table_has_no_chat(alice):
    table = GameFactory(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    table = game_leave(game=table, user=alice)
    assert table.status == Game.Status.ABANDONED
    with pytest.raises(NotAllowed, match="This table was closed"):
        chat_post(game=table, user=alice, text="anyone?")


def test_the_api_says_an_abandoned_tables_chat_is_closed_not_that_you_have_no_seat(alice):
    """409, as for a refusal for good, with the reason, to its host too (a 403 told the
    host they were not at their own table)."""
    from rest_framework.test import APIClient

    table = GameFactory(creator=alice, players=3, seats=[{"open": True}, {"open": True}])
    game_leave(game=table, user=alice)
    api = APIClient()
    api.force_authenticate(alice)
    url = f"/api/v1/games/{table.pk}/chat/"
    for answer in (api.get(url), api.post(url, {"text": "anyone?"}, format="json")):
        assert answer.status_code == 409 and answer.json()["code"] == "not_allowed"
        assert answer.json()["detail"] == "This table was closed."


def test_a_burst_of_messages_is_limited(game, alice, bob):
    for n in range(CHAT_BURST):
        chat_post(game=game, user=alice, text=f"message {n}")
    with pytest.raises(TooSoon, match="wait a moment") as refused:
        chat_post(game=game, user=alice, text="one more")
    assert 1 <= refused.value.retry_after <= 30
    chat_post(game=game, user=bob, text="others may still write")
    assert ChatMessage.objects.filter(user=alice).count() == CHAT_BURST
    # Written 20 seconds ago, the burst leaves the 30-second window in 10 seconds.
    ChatMessage.objects.filter(user=alice).update(created_at=timezone.now() - timedelta(seconds=20))
    with pytest.raises(TooSoon) as refused:
        chat_post(game=game, user=alice, text="one more")
    assert refused.value.retry_after in (10, 11)
    ChatMessage.objects.filter(user=alice).update(created_at=timezone.now() - timedelta(seconds=31))
    chat_post(game=game, user=alice, text="one more")


def test_the_same_line_sent_twice_is_one_message(game, alice, bob):
    """A double click, or a program retrying: the same text from the same player within
    ten seconds is the message already there; later, or from someone else, a new one."""
    first = chat_post(game=game, user=alice, text="good game")
    assert chat_post(game=game, user=alice, text="  good   game ") == first  # the same line
    chat_post(game=game, user=bob, text="good game")
    assert ChatMessage.objects.filter(game=game, text="good game").count() == 2
    ChatMessage.objects.filter(pk=first.pk).update(
        created_at=timezone.now() - timedelta(seconds=11)
    )
    assert chat_post(game=game, user=alice, text="good game") != first
    chat_post(game=game, user=alice, text="again")
    chat_post(game=game, user=alice, text="good game")  # not the last line: said again
    assert ChatMessage.objects.filter(user=alice, text="good game").count() == 3


@pytest.mark.django_db(transaction=True)
def test_the_same_line_sent_twice_at_once_is_one_message(game, alice):
    from tests.races import at_once

    outcomes = at_once(
        [lambda: chat_post(game=Game.objects.get(pk=game.pk), user=alice, text="gg")] * 4
    )
    assert len({o.pk for o in outcomes}) == 1, outcomes
    assert ChatMessage.objects.filter(user=alice).count() == 1


def test_the_api_answers_a_burst_with_429_and_when_to_try_again(game, alice):
    """A client tells the flood limit from a refusal for good (409) and knows when to
    send again."""
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(alice)
    url = f"/api/v1/games/{game.pk}/chat/"
    for n in range(CHAT_BURST):
        assert api.post(url, {"text": f"message {n}"}, format="json").status_code == 201
    ChatMessage.objects.filter(user=alice).update(created_at=timezone.now() - timedelta(seconds=20))
    refused = api.post(url, {"text": "one more"}, format="json")
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled" and "wait a moment" in refused.json()["detail"]
    assert refused["Retry-After"] in ("10", "11")
    assert ChatMessage.objects.filter(user=alice).count() == CHAT_BURST


def test_muting_hides_a_players_messages_everywhere_for_the_muter_only(game, alice, bob, dora):
    chat_post(game=game, user=bob, text="spam")
    chat_post(game=game, user=dora, text="hello")
    chat_mute(user=alice, username="bob")
    assert [line.text for line in chat_lines(game=game, user=alice)] == ["hello"]
    assert [line.text for line in chat_lines(game=game, user=dora)] == ["spam", "hello"]
    chat_mute(user=alice, username="bob", mute=False)
    assert [line.text for line in chat_lines(game=game, user=alice)] == ["spam", "hello"]
    with pytest.raises(NotAllowed, match="yourself"):
        chat_mute(user=alice, username="alice")
    with pytest.raises(NotAllowed, match="no such player"):
        chat_mute(user=alice, username="nobody-here")


def test_the_board_shows_the_chat_to_players_and_refreshes_with_it(client, game, alice, dave):
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/")
    html = page.content.decode()
    assert "Table chat" in html and 'name="text"' in html
    stamp = page.context["stamp"]
    # Nothing new: the poll answers 204.
    poll = f"/games/{game.pk}/board/?version={game.version}&t={stamp}"
    assert client.get(poll).status_code == 204
    response = client.post(f"/games/{game.pk}/chat/", {"text": "<script>alert(1)</script>"})
    assert response.status_code == 302
    assert client.get(poll).status_code == 200  # the chat changed the board
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    client.force_login(dave)  # a spectator sees no chat
    assert "Table chat" not in client.get(f"/games/{game.pk}/").content.decode()


def test_a_refused_message_shows_its_sentence_on_the_board(client, game, alice):
    client.force_login(alice)
    response = client.post(f"/games/{game.pk}/chat/", {"text": "x" * 400})
    assert response.status_code == 400
    assert "at most 300 characters; yours has 400" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_mute_from_the_board(client, game, alice, bob):
    chat_post(game=game, user=bob, text="noise")
    client.force_login(alice)
    response = client.post(f"/games/{game.pk}/chat/mute/", {"username": "bob"}, follow=True)
    assert "Bob muted" in response.content.decode()
    assert "noise" not in response.content.decode()
    client.post(f"/games/{game.pk}/chat/mute/", {"username": "bob", "mute": "0"})
    assert "noise" in client.get(f"/games/{game.pk}/").content.decode()


def test_a_mute_shows_on_the_board_with_the_way_back(client, game, alice, bob, dora, dave):
    """Muted at another table, Bob's messages are hidden here too: the board says so
    (not "No messages yet") and its "Show again" lifts the mute.  A muted player who
    does not sit here is not named."""
    chat_mute(user=alice, username="dave")
    chat_post(game=game, user=bob, text="noise")
    chat_mute(user=alice, username="bob")
    client.force_login(alice)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "noise" not in page and "No messages yet." not in page
    assert "No messages to show." in page
    assert "You muted Bob: their messages are hidden from you, at every table." in page
    assert "Dave" not in page
    form = re.search(r"<form[^>]*chat/mute/[^>]*>(.*?)</form>", page.split("chat__muted")[1], re.S)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(1)))
    assert fields["username"] == "bob" and fields["mute"] == "0"
    response = client.post(f"/games/{game.pk}/chat/mute/", fields, follow=True)
    page = response.content.decode()
    assert "Bob no longer muted." in page and "noise" in page
    assert "chat__muted" not in page
    # Bob sees nothing of it.
    client.force_login(bob)
    assert "You muted" not in client.get(f"/games/{game.pk}/").content.decode()


def test_a_muted_player_who_left_before_the_start_is_named_where_they_wrote(
    client, alice, carol, dave, erin
):
    """Dave wrote at Alice's waiting table, then left it: his line stays there, hidden
    from Alice once she mutes him, and her chat names him with its "Show again"."""
    from games.services import game_create, game_join, game_leave

    table = game_create(
        creator=alice, players=4, seats=[{"open": True}, {"open": True}, {"ai": "easy"}]
    )
    game_join(game=table, user=dave)
    chat_post(game=table, user=dave, text="back in a minute")
    game_leave(game=table, user=dave)
    for user in (carol, erin):
        game_join(game=table, user=user)
    assert Game.objects.get(pk=table.pk).status == Game.Status.ACTIVE
    chat_mute(user=alice, username="dave")
    client.force_login(alice)
    page = client.get(f"/games/{table.pk}/").content.decode()
    assert "back in a minute" not in page
    assert "You muted Dave: their messages are hidden from you, at every table." in page
    client.post(f"/games/{table.pk}/chat/mute/", {"username": "dave", "mute": "0"})
    assert "back in a minute" in client.get(f"/games/{table.pk}/").content.decode()


def test_the_players_of_a_waiting_table_chat_on_its_page(client, alice, dave, erin):
    """Before the start too: "back tonight" while the table waits for its last seat.
    Only those seated (not the invited who have not answered, nor visitors) see it."""
    from games.services import game_create, game_join

    table = game_create(
        creator=alice, players=4, seats=[{"open": True}, {"user": "erin"}, {"ai": "easy"}]
    )
    game_join(game=table, user=dave)
    client.force_login(dave)
    page = client.post(f"/games/{table.pk}/chat/", {"text": "back tonight"}, follow=True)
    assert "back tonight" in page.content.decode()
    client.force_login(alice)
    page = client.get(f"/games/{table.pk}/").content.decode()
    assert "Waiting for players" in page
    assert "back tonight" in page and 'id="chat-form"' in page
    client.force_login(erin)  # invited, not answered yet
    page = client.get(f"/games/{table.pk}/").content.decode()
    assert "Waiting for players" in page and "back tonight" not in page
    client.logout()
    assert "back tonight" not in client.get(f"/games/{table.pk}/").content.decode()


def test_the_chat_in_the_api(game, alice, bob, dave):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(alice)
    created = api.post(f"/api/v1/games/{game.pk}/chat/", {"text": "gl hf"}, format="json")
    assert created.status_code == 201
    assert [m["text"] for m in created.json()["messages"]] == ["gl hf"]
    assert set(created.json()["messages"][0]) == {
        "id",
        "author",
        "username",
        "text",
        "at",
        "reported",
    }
    bad = api.post(f"/api/v1/games/{game.pk}/chat/", {"text": "  "}, format="json")
    assert bad.status_code == 400 and "Write a message first." in str(bad.json())
    unknown = api.post(f"/api/v1/games/{game.pk}/chat/", {"text": "x", "to": 1}, format="json")
    assert unknown.status_code == 400
    api.force_authenticate(dave)
    assert api.get(f"/api/v1/games/{game.pk}/chat/").status_code == 403
    assert (
        api.post(f"/api/v1/games/{game.pk}/chat/", {"text": "hi"}, format="json").status_code == 403
    )
    api.force_authenticate(bob)
    listed = api.get(f"/api/v1/games/{game.pk}/chat/")
    assert listed.status_code == 200 and listed.json()["messages"][0]["author"] == "Alice"
    assert ChatMessage.objects.count() == 1


def test_the_next_turn_email_mentions_the_chat(dora, alice, bob, run_commits):
    """Alice's turn e-mail lists what the others wrote since her last move (not her own
    messages, not a muted player's)."""
    from games.services import game_submit_action

    with run_commits():
        game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux3"), first_player=0)
    chat_post(game=game, user=bob, text="Your move next, Alice!")
    chat_post(game=game, user=alice, text="coming")
    chat_post(game=game, user=dora, text="zzz")
    chat_mute(user=alice, username="dora")
    mail.outbox.clear()
    with run_commits():
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    to_alice = [m for m in mail.outbox if m.to == [alice.email]]
    assert len(to_alice) == 1
    body, html = to_alice[0].body, to_alice[0].alternatives[0][0]
    # Alice has not moved yet: the lines may be ones she read at the table ("New" said
    # they were not).
    assert "In the table's chat:" in body and "Bob: Your move next, Alice!" in body
    assert "New" not in body and "since your last move" not in body
    assert "coming" not in body and "zzz" not in body
    assert "<strong>Bob</strong>: Your move next, Alice!" in html
    # Dora has moved: her next turn's e-mail lists what came since, and says so.
    chat_post(game=game, user=bob, text="Brave pass, Dora")
    mail.outbox.clear()
    game.refresh_from_db()
    while not [m for m in mail.outbox if m.to == [dora.email]]:
        seat = seats_to_act(game.engine_state())[0]
        with run_commits():
            game = game_submit_action(
                game=game,
                user=Seat.objects.get(game=game, position=seat).user,
                action={"type": "pass"},
                expected_version=game.version,
            )
    body = next(m.body for m in mail.outbox if m.to == [dora.email])
    assert "In the table's chat since your last move:" in body
    assert "Bob: Brave pass, Dora" in body and "Your move next" not in body


@pytest.mark.parametrize("text", [0.0, 12, True, ["hi"], {"a": 1}, None])
def test_the_api_takes_a_message_only_as_a_json_string(game, alice, text):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(alice)
    answer = api.post(f"/api/v1/games/{game.pk}/chat/", {"text": text}, format="json")
    assert answer.status_code == 400
    assert not ChatMessage.objects.exists()


def test_the_api_chat_gives_what_is_new_after_a_message(game, alice, bob):
    """A client polling the chat sends the last id it has (``after``) and gets only the
    messages written since; a bad cursor is a 400 that names it."""
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(bob)
    for text in ("one", "two", "three"):
        chat_post(game=game, user=alice, text=text)
    url = f"/api/v1/games/{game.pk}/chat/"
    everything = api.get(url).json()["messages"]
    assert [m["text"] for m in everything] == ["one", "two", "three"]
    newer = api.get(url, {"after": everything[0]["id"]}).json()["messages"]
    assert [m["text"] for m in newer] == ["two", "three"]
    assert api.get(url, {"after": everything[-1]["id"]}).json()["messages"] == []
    assert api.get(url, {"after": 0}).json()["messages"] == everything
    for bad in ("-1", "x", ""):
        answer = api.get(url, {"after": bad})
        assert answer.status_code == 400 and "after" in answer.json()["errors"], bad


def test_a_client_reading_on_after_a_long_absence_misses_no_message(game, alice, bob):
    """More came than one answer holds: ``after`` gives the first 50 after it and
    ``next_after`` to read on from, until the latest, so every message is read once."""
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(bob)
    url = f"/api/v1/games/{game.pk}/chat/"
    ChatMessage.objects.bulk_create(
        ChatMessage(game=game, user=alice, text=f"line {n}") for n in range(120)
    )
    latest = api.get(url).json()
    assert [m["text"] for m in latest["messages"]] == [f"line {n}" for n in range(70, 120)]
    assert latest["next_after"] is None
    read, after, answers = [], 0, 0
    while after is not None:
        answer = api.get(url, {"after": after}).json()
        read += [m["text"] for m in answer["messages"]]
        after, answers = answer["next_after"], answers + 1
    assert read == [f"line {n}" for n in range(120)] and answers == 3


@pytest.mark.parametrize(
    "text",
    [
        "👨\u200d👩\u200d👧 family night",  # one emoji, joined by zero-width joiners
        "🏳\ufe0f\u200d🌈",  # the rainbow flag
        "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # England's flag
        "می\u200cخواهم",  # Persian: the zero-width non-joiner is spelling
    ],
)
def test_the_invisible_characters_writing_needs_are_kept(game, alice, text):
    assert chat_post(game=game, user=alice, text=text).text == text


def test_direction_overrides_go_and_joiners_alone_are_no_message(game, alice):
    assert chat_post(game=game, user=alice, text="abc\u202edef\u2066").text == "abcdef"
    with pytest.raises(NotAllowed, match="Write a message first."):
        chat_post(game=game, user=alice, text="\u200d \u200c\U000e0067")


def test_a_french_turn_email_writes_the_chat_line_as_french_does(dora, alice, bob, run_commits):
    """ "alice: Hi both!" in a French e-mail: French puts a no-break space before ":"."""
    from games.services import game_submit_action

    alice.language = "fr"
    alice.save(update_fields=["language"])
    with run_commits():
        game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux3"), first_player=0)
    chat_post(game=game, user=bob, text="À toi, Alice !")
    mail.outbox.clear()
    with run_commits():
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    (message,) = [m for m in mail.outbox if m.to == [alice.email]]
    assert "Bob\u00a0: À toi, Alice !" in message.body
    assert "<strong>Bob</strong>\u00a0: À toi, Alice !" in message.alternatives[0][0]
