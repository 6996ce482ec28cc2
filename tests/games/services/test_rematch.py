"""The end of a game (issue #14): places, rating changes, the replay and record links,
and a one-click rematch with the same seats and options."""

from __future__ import annotations

import random

import pytest

from games.errors import NotAllowed, NotYourSeat
from games.models import Game, Seat
from games.services import game_invitation_respond, game_rematch, game_resign
from games.templatetags.game_cards import rating_change
from tests.games.factories import people_game, people_play, play_out
from tests.races import at_once

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def finished(alice, bob, carol, run_commits):
    """Alice, Bob, an easy bot and Carol, with options, played to the end."""
    from games.services import game_create

    with run_commits():
        game = game_create(
            creator=alice,
            players=4,
            seats=[{"user": "bob"}, {"ai": "easy"}, {"user": "carol"}],
            advanced=["yacht"],
            move_deadline_hours=48,
            memory_aid=True,
        )
        for user in (bob, carol):
            game = game_invitation_respond(game=game, user=user, accept=True)
    game = play_out(game, random.Random(5), run_commits)
    assert game.status == Game.Status.FINISHED
    return game


def test_a_rematch_seats_the_same_players_and_options_at_a_new_table(finished, bob, alice, carol):
    rematch, opened = game_rematch(game=finished, user=bob)
    assert opened and rematch.pk != finished.pk and rematch.rematch_of == finished
    assert rematch.status == Game.Status.OPEN and rematch.created_by == bob
    assert (rematch.players, rematch.advanced, rematch.move_deadline_hours, rematch.memory_aid) == (
        4,
        ["yacht"],
        48,
        True,
    )
    seats = list(Seat.objects.filter(game=rematch).order_by("position"))
    assert [(s.user_id, s.ai_level, s.accepted) for s in seats] == [
        (alice.pk, "", False),  # invited
        (bob.pk, "", True),  # who asked: seated
        (None, "easy", True),
        (carol.pk, "", False),
    ]
    # Asked again, by anyone at the table: the same table, not a second one, and asking
    # takes one's seat there (Carol was left "invited, not answered" with a message that
    # the others were invited).
    assert game_rematch(game=finished, user=carol) == (rematch, False)
    assert Game.objects.filter(rematch_of=finished).count() == 1
    assert Seat.objects.get(game=rematch, position=3).accepted
    assert not Seat.objects.get(game=rematch, position=0).accepted  # Alice did not ask


def test_asking_again_says_where_one_stands(client, finished, alice, bob, carol):
    """The message after Rematch on a table someone else opened: one's seat taken, or,
    after declining, no seat (it said "the others are invited" to all of them)."""
    rematch, _ = game_rematch(game=finished, user=bob)
    game_invitation_respond(game=rematch, user=carol, accept=False)
    client.force_login(alice)
    page = client.post(f"/games/{finished.pk}/rematch/", follow=True).content.decode()
    assert f"Rematch: table {rematch.pk}. Your seat is taken" in page
    client.force_login(carol)
    page = client.post(f"/games/{finished.pk}/rematch/", follow=True).content.decode()
    assert f"Rematch: table {rematch.pk}. You have no seat there." in page
    assert not Seat.objects.filter(game=rematch, user=carol).exists()


def test_a_rematch_closed_by_its_host_makes_way_for_another(client, finished, alice, bob):
    """The host closed the rematch before it started: the end screens named the closed
    table for ever (a 404 to the others) and no new rematch could be made."""
    from games.services import game_leave

    rematch, _ = game_rematch(game=finished, user=bob)
    game_leave(game=rematch, user=bob)
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ABANDONED and rematch.rematch_of is None
    client.force_login(alice)
    html = client.get(f"/games/{finished.pk}/").content.decode()
    assert f"Rematch: table {rematch.pk}" not in html
    assert f'action="/games/{finished.pk}/rematch/"' in html
    second, opened = game_rematch(game=finished, user=alice)
    assert opened and second.pk != rematch.pk and second.rematch_of == finished
    with pytest.raises(NotAllowed, match="closed before it started"):
        game_rematch(game=rematch, user=bob)


def test_a_rematch_closed_before_closing_released_it_counts_no_more(client, finished, alice, bob):
    """Tables closed before the release existed are still linked to their finished game."""
    rematch, _ = game_rematch(game=finished, user=bob)
    Game.objects.filter(pk=rematch.pk).update(status=Game.Status.ABANDONED)  # as closed then
    client.force_login(alice)
    assert (
        f"Rematch: table {rematch.pk}" not in client.get(f"/games/{finished.pk}/").content.decode()
    )
    second, opened = game_rematch(game=finished, user=alice)
    assert opened and second.pk != rematch.pk


def test_a_player_who_blocks_the_asker_does_not_stop_the_rematch(finished, alice, bob, carol):
    """Carol blocks Bob's invitations (declined one of his tables): his rematch was
    refused outright ("carol does not take invitations from you").  Her seat now waits
    for the host, as a declined invitation does, and she is not invited."""
    from games.models import InvitationBlock

    InvitationBlock.objects.create(user=carol, blocked=bob)
    rematch, opened = game_rematch(game=finished, user=bob)
    assert opened
    seat = Seat.objects.get(game=rematch, position=3)
    assert seat.user is None and seat.declined_by == carol and seat.held
    assert Seat.objects.get(game=rematch, position=0).user == alice  # the others invited
    # Never invited, she has no seat "of her invitation" to take back there: joining
    # is as a stranger's, and no seat is open (hers stays the host's to fill).
    from games.selectors import seat_held_for
    from games.services import game_join

    assert seat_held_for(rematch, carol) is None
    with pytest.raises(NotAllowed, match="No seat is open"):
        game_join(game=rematch, user=carol)
    seat.refresh_from_db()
    assert seat.user is None and seat.held


def test_a_resigned_player_is_invited_again_as_a_person(alice, bob, carol, run_commits):
    with run_commits():
        game = people_game(alice, bob, carol)
        game = game_resign(game=game, user=carol)
    game = play_out(game, random.Random(2), run_commits)
    rematch, _opened = game_rematch(game=game, user=alice)
    carol_seat = Seat.objects.get(game=rematch, position=2)
    assert carol_seat.user == carol and not carol_seat.ai_level and not carol_seat.accepted


def test_only_the_players_and_only_after_the_end(finished, dave, alice, bob, carol):
    with pytest.raises(NotYourSeat, match="Only the players"):
        game_rematch(game=finished, user=dave)
    running = people_game(alice, bob, carol)
    with pytest.raises(NotAllowed, match="not over yet"):
        game_rematch(game=running, user=alice)
    assert not Game.objects.filter(rematch_of__isnull=False).exists()


def test_the_end_screen(client, finished, alice, dave):
    client.force_login(alice)
    html = client.get(f"/games/{finished.pk}/").content.decode()
    assert "Final scores" in html and '<th scope="col">Place</th>' in html
    assert f'href="/games/{finished.pk}/replay/?move=0"' in html  # from the set-up
    assert f'href="/games/{finished.pk}/record.json"' in html
    assert 'href="/"' in html and "Back to the lobby" in html
    assert f'action="/games/{finished.pk}/rematch/"' in html
    response = client.post(f"/games/{finished.pk}/rematch/")
    rematch = Game.objects.get(rematch_of=finished)
    assert response.status_code == 302 and response.url == f"/games/{rematch.pk}/"
    html = client.get(f"/games/{finished.pk}/").content.decode()
    assert f"Rematch: table {rematch.pk}" in html and "rematch/" not in html.split("Final")[0]
    client.force_login(dave)  # a spectator: no rematch button
    html = client.get(f"/games/{finished.pk}/").content.decode()
    assert f'action="/games/{finished.pk}/rematch/"' not in html


def test_places_and_rating_changes_on_the_end_screen(client, alice, bob, carol):
    """A rated game of three people: places 1 to 3 and each one's rating change."""
    from accounts.models import PlayerResult
    from games.presenter import score_lines
    from games.selectors import table_view

    game = people_play(people_game(alice, bob, carol), random.Random(9))
    rows = score_lines(table_view(game=game, user=alice))
    assert sorted(r["place"] for r in rows)[0] == 1 and max(r["place"] for r in rows) <= 3
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    for result in PlayerResult.objects.filter(game=game):
        assert result.rated
        shown = rating_change(result.rating_change_shown)
        assert shown[0] in "+\u2212" and f">{shown}<" in html  # a minus sign, not a hyphen


INVITE_NOTE = "Same players and options at a new table; the others are invited."


def _end_screen_then_rematch(client, user, game):
    """What ``user`` reads on the end screen, then their click on Rematch: (the end
    screen, the rematch table, the page the click leads to)."""
    client.force_login(user)
    html = client.get(f"/games/{game.pk}/").content.decode()
    page = client.post(f"/games/{game.pk}/rematch/", follow=True).content.decode()
    return html, Game.objects.get(rematch_of=game), page


def test_a_rematch_against_bots_only_starts_at_once_and_says_so(client, alice, run_commits):
    from tests.games.factories import GameFactory

    with run_commits():
        game = GameFactory(creator=alice, seats=[{"ai": "easy"}, {"ai": "medium"}])
    game = play_out(game, random.Random(6), run_commits)
    html, rematch, page = _end_screen_then_rematch(client, alice, game)
    assert "The same bots and options at a new table; it starts at once." in html
    assert "the others are invited" not in html
    assert rematch.status == Game.Status.ACTIVE
    assert f"Rematch: table {rematch.pk}. The game has begun." in page
    assert "invited" not in page.split('class="messages"')[1].split("</ul>")[0]


def test_a_rematch_with_people_says_they_are_invited(client, finished, alice):
    html, rematch, page = _end_screen_then_rematch(client, alice, finished)
    assert INVITE_NOTE in html
    assert rematch.status == Game.Status.OPEN
    assert f"Rematch: table {rematch.pk}. The other players are invited" in page


def test_a_rematch_invites_a_player_who_resigned_and_says_so(client, alice, bob, run_commits):
    """Bob resigned (a bot played his seat to the end): the rematch invites him again,
    so it does not start at once, and the end screen says so."""
    from tests.games.factories import GameFactory

    with run_commits():
        game = GameFactory(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
        game = game_invitation_respond(game=game, user=bob, accept=True)
        game = game_resign(game=game, user=bob)
    game = play_out(game, random.Random(7), run_commits)
    html, rematch, page = _end_screen_then_rematch(client, alice, game)
    assert INVITE_NOTE in html
    assert rematch.status == Game.Status.OPEN
    assert f"Rematch: table {rematch.pk}. The other players are invited" in page


def _end_screen_poll(client, game) -> str:
    """The poll address the end screen refreshes itself from."""
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'hx-trigger="every 15s' in html
    return html.split('id="board"', 1)[1].split('hx-get="', 1)[1].split('"', 1)[0]


def test_an_open_end_screen_learns_of_the_rematch_and_of_new_chat(
    client, finished, alice, bob, run_commits
):
    """Bob keeps the end screen open while Alice asks for the rematch: his next refresh
    shows it, the button now taking his seat there (it showed the button that opens one
    until he reloaded); a "well played" written after the end shows too."""
    from games.chat import chat_post

    client.force_login(bob)
    poll = _end_screen_poll(client, finished).replace("&amp;", "&")
    assert client.get(poll, **HX).status_code == 204  # nothing new yet
    with run_commits():
        rematch, _opened = game_rematch(game=finished, user=alice)
    answer = client.get(poll, **HX)
    assert answer.status_code == 200
    assert f"Another player opened it (table {rematch.pk})" in answer.content.decode()
    poll = _end_screen_poll(client, finished).replace("&amp;", "&")
    chat_post(game=finished, user=alice, text="Well played, all")
    answer = client.get(poll, **HX)
    assert answer.status_code == 200 and "Well played, all" in answer.content.decode()


def test_a_spectators_end_screen_does_not_refresh(client, finished, dave):
    client.force_login(dave)
    html = client.get(f"/games/{finished.pk}/").content.decode()
    assert "Final scores" in html and "hx-trigger" not in html.split('id="board"', 1)[1][:600]


@pytest.mark.django_db(transaction=True)
def test_a_rematch_asked_for_at_once_by_an_invited_player_is_the_same_answer(
    finished, monkeypatch, alice, bob
):
    """Bob, invited to the rematch Alice opened, asks three times at once (a
    double-click, a retried request): each answer is the table, his seat taken once."""
    import time

    import games.services

    rematch, _ = game_rematch(game=finished, user=alice)
    join = games.services.game_join

    def slowly(**kwargs):  # every request has read "invited" before the first joins
        time.sleep(0.05)
        return join(**kwargs)

    monkeypatch.setattr(games.services, "game_join", slowly)
    outcomes = at_once([lambda: game_rematch(game=Game.objects.get(pk=finished.pk), user=bob)] * 3)
    assert [o if isinstance(o, Exception) else (o[0].pk, o[1]) for o in outcomes] == [
        (rematch.pk, False)
    ] * 3
    assert Seat.objects.filter(game=rematch, user=bob, accepted=True).count() == 1


def test_a_rematch_invites_again_past_the_cap_of_invitations_per_person(
    finished, alice, bob, carol, settings, run_commits
):
    """Friends who had played five games in a day were refused the sixth: "You have
    invited bob 5 times in the last 24 hours … leave the seat open", which a rematch
    cannot do.  The cap is against flooding a stranger with e-mails; the people of the
    game just finished are invited again (a player who blocks the host still is not),
    while an invitation to a new table still meets the cap."""
    from games.models import Notification
    from games.services import game_create

    settings.TABLE_LIMITS = {**settings.TABLE_LIMITS, "invitations_per_person": 1}
    sent = Notification.objects.filter(kind=Notification.Kind.INVITATION, game__created_by=alice)
    assert sent.filter(user=bob).count() == 1  # the cap is reached
    with run_commits():
        rematch, opened = game_rematch(game=finished, user=alice)
    assert opened and rematch.rematch_of == finished
    assert set(
        Seat.objects.filter(game=rematch, accepted=False).values_list("user", flat=True)
    ) == {
        bob.pk,
        carol.pk,
    }
    assert sent.filter(user=bob).count() == 2
    with pytest.raises(NotAllowed, match="You have invited"):
        game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])


def test_the_end_screen_offers_a_seat_at_a_rematch_another_player_opened(
    client, finished, alice, bob
):
    """Once Bob had opened the rematch, Alice's end screen showed only a link to it,
    where she still had to accept: the README promises that pressing Rematch takes
    her seat.  Her button now does; once seated (or without a seat there), the link."""
    rematch, _ = game_rematch(game=finished, user=bob)
    client.force_login(alice)
    board = client.get(f"/games/{finished.pk}/").content.decode()
    assert f"Another player opened it (table {rematch.pk}): this takes your seat there." in board
    assert f'action="/games/{finished.pk}/rematch/"' in board
    client.post(f"/games/{finished.pk}/rematch/")
    assert Seat.objects.get(game=rematch, user=alice).accepted
    board = client.get(f"/games/{finished.pk}/").content.decode()
    assert "this takes your seat there" not in board
    assert f'href="/games/{rematch.pk}/"' in board


def test_the_end_screen_opened_logged_out_says_how_to_ask_for_a_rematch(client, finished):
    """The game-over e-mail's link opened logged out showed the scores with no Rematch
    and nothing on the page saying to log in for it."""
    board = client.get(f"/games/{finished.pk}/").content.decode()
    assert 'id="rematch-log-in"' in board
    assert f'href="/accounts/login/?next=/games/{finished.pk}/"' in board


def test_a_rematch_opened_and_closed_again_and_again_meets_the_cap(
    finished, alice, bob, settings, run_commits
):
    """The rematch's way past the cap per person looped: rematch, close it before the
    start, rematch again, each time an invitation e-mail (and a "closed" one) to Bob.
    Invitations to tables that were never played still count."""
    from games.services import game_leave

    settings.TABLE_LIMITS = {**settings.TABLE_LIMITS, "invitations_per_person": 1}
    with run_commits():
        rematch, _ = game_rematch(game=finished, user=alice)
        game_leave(game=rematch, user=alice)  # the host closes it before the start
    with pytest.raises(NotAllowed, match="You have invited Bob 1 time in the last 24 hours"):
        game_rematch(game=finished, user=alice)
