"""Ratings and stats, updated once when a game ends.

``record_finished_game(game)`` listens to ``games.events.game_finished``, which the
services send inside the transaction that finishes the game.  It writes, once per game (the ``GameRecord`` row, keyed by the game,
is the guard):

- one ``PlayerResult`` per person seated (rank, won, cast out, status, money, rating
  before and after);
- each person's ``PlayerStats`` (totals, cards won at auction, current rating);
- ``HeadToHead`` records against every other person and bot level at the table;
- the ``BotRating`` of each bot level at the table.

**The ranking** (``final_ranking``): the winners first, tied (a shared win is a tie);
then the other players who were not cast out, as the win is decided: by status, then
money, then the top luxury (all equal, equal place); the cast-out players last, tied.  When everybody is cast out, nobody wins and all tie.

**Ratings**: OpenSkill's Plackett-Luce model (Weng-Lin), each seat a team of one, from
that ranking.  People have their own rating; bots have one rating per level, shared by
every seat of that level (two seats of the same level in one game: the level moves by
the mean of their two updates).  A newcomer starts at mu 25, sigma 25/3; the shown
rating is ``rating_display``: 1000 + 40 (mu − 3 sigma), a conservative estimate.

**Unrated games** (``unrated_reason``): a game where a person resigned, where a
deadline made a move for an absent person (``Move.Actor.DEADLINE``), or a staff
scenario game (a fixed deck) changes no rating, neither the people's nor the bots'.
Such games still count in the stats (played, won, cast out, status, cards won,
head-to-head), except where a person resigned: the end of their seat is the bot's, so
they never get its win, its final status (the average status is over the games a
person did not resign from) or its being cast out; their cards won are those they won
before resigning; and they rank last in their head-to-head records for that game.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Q
from django.dispatch import receiver
from django.utils.translation import gettext_noop
from openskill.models import PlackettLuce

from accounts.models import (
    BotRating,
    GameRecord,
    HeadToHead,
    PlayerResult,
    PlayerStats,
    rating_display,
)
from games import events
from games.engine import State, final_ranking, score_details
from games.models import Game, Move, Seat
from games.selectors import RESIGNED_REASON

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
RESIGNED_RANK = 99  # below everybody, in head-to-head comparisons only

__all__ = [
    "final_ranking",
    "rate",
    "record_finished_game",
    "unrated_reason",
]


def rate(priors: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) per seat from their priors and places (lower place = better)."""
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in priors]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def unrated_reason(game: Game, seats: Sequence[Seat]) -> str:
    """Why the game changes no rating, or "" when it is rated."""
    # Stored in English; the pages show them in the reader's language (gettext_noop
    # marks them for translation: games.selectors.game_ending).
    if game.is_scenario:
        return gettext_noop("A scenario game (the deck or first player was fixed by staff).")
    if any(seat.resigned and not seat.handed_over for seat in seats):
        return RESIGNED_REASON
    if any(seat.handed_over for seat in seats):
        return gettext_noop("The host handed an absent player's seat to a bot.")
    if Move.objects.filter(game=game, actor=Move.Actor.DEADLINE).exists():
        return gettext_noop("A deadline passed and a bot moved for an absent player.")
    return ""


def cards_won_by_seat(state: State, events: int | None = None) -> list[dict[str, int]]:
    """Status cards each seat won at auction (normal auctions and the Yacht Club),
    from the public log (its first ``events`` events: None, all); misfortunes are
    taken, not won, and are not counted."""
    won: list[dict[str, int]] = [{} for _ in range(state.players)]
    for event in state.events[:events]:
        if event[0] == "win":
            seat, card = event[1], event[2]
        elif event[0] == "sealed" and event[2] >= 0:
            seat, card = event[2], "yacht"
        else:
            continue
        won[seat][card] = won[seat].get(card, 0) + 1
    return won


def _cards_won_before(game: Game, state: State, seat: Seat) -> dict[str, int]:
    """The cards a resigned player won themselves, before a bot took their seat (none
    where that moment was not recorded).  One query."""
    if not seat.resigned_after:
        return {}
    events = (
        Move.objects.filter(game=game, number=seat.resigned_after - 1)
        .values_list("log_end", flat=True)
        .first()
    )
    return cards_won_by_seat(state, events or 0)[seat.position]


def record_finished_game(game: Game, *, seats: Sequence[Seat] | None = None) -> GameRecord | None:
    """Count a finished game in stats, head-to-head records and ratings, once.

    Call it inside the transaction that finished the game (the game row locked); a
    second call for the same game does nothing and returns ``None``.  About fifteen
    queries whatever the number of games played before.
    """
    if game.status != Game.Status.FINISHED or game.state is None:
        raise ValueError(f"Game {game.pk} is not finished: there is nothing to record.")
    if GameRecord.objects.filter(pk=game.pk).exists():
        return None
    if seats is None:
        seats = list(Seat.objects.filter(game=game).order_by("position"))
    seats = sorted(seats, key=lambda seat: seat.position)
    state = State.from_json(game.state)
    details = score_details(state)
    ranks = final_ranking(details)
    reason = unrated_reason(game, seats)
    rated = not reason
    record = GameRecord.objects.create(game=game, rated=rated, unrated_reason=reason)
    finished_at = game.finished_at or record.recorded_at

    people = [seat for seat in seats if seat.user_id is not None]
    bots = [seat for seat in seats if seat.user_id is None and seat.ai_level]
    stats = _stats_locked([seat.user_id for seat in people])
    bot_ratings = _bot_ratings_locked(sorted({seat.ai_level for seat in bots})) if rated else {}

    after: dict[int, tuple[float, float]] = {}
    if rated:
        priors = []
        for seat in seats:
            if seat.user_id is not None:
                row = stats[seat.user_id]
                if row.rating_mu is None or row.rating_sigma is None:
                    priors.append((DEFAULT_MU, DEFAULT_SIGMA))
                else:
                    priors.append((row.rating_mu, row.rating_sigma))
            else:
                bot = bot_ratings[seat.ai_level]
                priors.append((bot.mu, bot.sigma))
        after = dict(enumerate(rate(priors, ranks)))
        _bots_update(bot_ratings, bots, priors, after)

    cards_won = cards_won_by_seat(state)
    results = []
    for seat in people:
        row, detail = stats[seat.user_id], details[seat.position]
        before = row.rating if row.rated_games else None
        won = bool(detail["winner"]) and not seat.resigned
        row.games_played += 1
        row.games_won += won
        row.games_resigned += seat.resigned
        if not seat.resigned:  # a resigned seat's end is the bot's, not the player's
            row.times_cast_out += bool(detail["cast_out"])
            row.status_total += detail["status"]
        row.last_game_at = finished_at
        counts = dict(row.cards_won or {})
        if seat.resigned:
            own = _cards_won_before(game, state, seat)
        else:
            own = cards_won[seat.position]
        for card, n in own.items():
            counts[card] = counts.get(card, 0) + n
        row.cards_won = counts
        if rated:
            mu, sigma = after[seat.position]
            row.rating_mu, row.rating_sigma = mu, sigma
            row.rating = rating_display(mu, sigma)
            row.rated_games += 1
            if before is None:
                before = rating_display(DEFAULT_MU, DEFAULT_SIGMA)
        results.append(
            PlayerResult(
                user_id=seat.user_id,
                game=game,
                seat=seat.position,
                rank=ranks[seat.position],
                won=won,
                cast_out=bool(detail["cast_out"]),
                resigned=seat.resigned,
                handed_over=seat.handed_over,
                status=detail["status"],
                money=detail["money"],
                rated=rated,
                rating_before=before if rated else None,
                rating_after=row.rating if rated else None,
                finished_at=finished_at,
            )
        )
    PlayerStats.objects.bulk_update(
        stats.values(),
        [
            "games_played",
            "games_won",
            "times_cast_out",
            "games_resigned",
            "status_total",
            "last_game_at",
            "cards_won",
            "rating_mu",
            "rating_sigma",
            "rating",
            "rated_games",
        ],
    )
    PlayerResult.objects.bulk_create(results)
    _head_to_head_update(seats, ranks)
    return record


# --------------------------------------------------------------------------- helpers


def _stats_locked(user_ids: list[int]) -> dict[int, PlayerStats]:
    """The people's stats rows, created when missing, locked in user order (two games
    ending at once for the same person wait for each other, never deadlock).  Missing
    rows are inserted in that order too: an insert waits on another transaction's
    insert of the same key, so two games seating the same new players in other orders
    would otherwise wait on each other."""
    if not user_ids:
        return {}
    PlayerStats.objects.bulk_create(
        [PlayerStats(user_id=uid) for uid in sorted(user_ids)], ignore_conflicts=True
    )
    rows = PlayerStats.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")
    return {row.user_id: row for row in rows}


def _bot_ratings_locked(levels: list[str]) -> dict[str, BotRating]:
    if not levels:
        return {}
    BotRating.objects.bulk_create(
        [
            BotRating(
                level=level,
                mu=DEFAULT_MU,
                sigma=DEFAULT_SIGMA,
                rating=rating_display(DEFAULT_MU, DEFAULT_SIGMA),
            )
            for level in sorted(levels)  # in lock order, as for the stats rows
        ],
        ignore_conflicts=True,
    )
    rows = BotRating.objects.select_for_update().filter(level__in=levels).order_by("level")
    return {row.level: row for row in rows}


def _bots_update(
    bot_ratings: dict[str, BotRating],
    bots: list[Seat],
    priors: list[tuple[float, float]],
    after: dict[int, tuple[float, float]],
) -> None:
    """Each level moves by the mean update of its seats at this table."""
    for level, row in bot_ratings.items():
        positions = [seat.position for seat in bots if seat.ai_level == level]
        n = len(positions)
        row.mu += sum(after[p][0] - priors[p][0] for p in positions) / n
        row.sigma = sum(after[p][1] for p in positions) / n
        row.rating = rating_display(row.mu, row.sigma)
        row.rated_games += 1
    if bot_ratings:
        BotRating.objects.bulk_update(
            bot_ratings.values(), ["mu", "sigma", "rating", "rated_games"]
        )


def _head_to_head_update(seats: Sequence[Seat], ranks: list[int]) -> None:
    """Each person against each other person, and against each bot level (the level's
    best-placed seat at the table): a win, a loss or a draw by place."""
    place = [RESIGNED_RANK if seat.resigned else ranks[seat.position] for seat in seats]
    outcomes: dict[tuple[int, int | None, str], str] = {}
    for me in seats:
        if me.user_id is None:
            continue
        best_bot: dict[str, int] = {}
        for other in seats:
            if other is me:
                continue
            if other.user_id is not None:
                outcomes[(me.user_id, other.user_id, "")] = _outcome(
                    place[me.position], place[other.position]
                )
            elif other.ai_level:
                best = best_bot.get(other.ai_level)
                p = place[other.position]
                best_bot[other.ai_level] = p if best is None else min(best, p)
        for level, p in best_bot.items():
            outcomes[(me.user_id, None, level)] = _outcome(place[me.position], p)
    if not outcomes:
        return
    HeadToHead.objects.bulk_create(  # in one order for every game, as for the stats rows
        [
            HeadToHead(user_id=u, opponent_id=o, opponent_bot=b)
            for u, o, b in sorted(outcomes, key=lambda key: (key[0], key[1] or 0, key[2]))
        ],
        ignore_conflicts=True,
    )
    wanted = Q()
    for user_id, opponent_id, bot in outcomes:
        if opponent_id is None:
            wanted |= Q(user_id=user_id, opponent__isnull=True, opponent_bot=bot)
        else:
            wanted |= Q(user_id=user_id, opponent_id=opponent_id)
    rows = list(HeadToHead.objects.select_for_update().filter(wanted).order_by("pk"))
    changed = []
    for row in rows:
        result = outcomes.get((row.user_id, row.opponent_id, row.opponent_bot))
        if result is None:
            continue
        row.games += 1
        setattr(row, result, getattr(row, result) + 1)
        changed.append(row)
    HeadToHead.objects.bulk_update(changed, ["games", "wins", "losses", "draws"])


def _outcome(mine: int, theirs: int) -> str:
    if mine < theirs:
        return "wins"
    if mine > theirs:
        return "losses"
    return "draws"


@receiver(events.game_finished)
def _game_finished(*, game: Game, seats: Sequence[Seat], **_) -> None:
    record_finished_game(game, seats=seats)
