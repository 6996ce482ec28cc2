"""End of the game and scoring (docs/rules.md, "End of the game and scoring")."""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import DEBT, GAMBLING, LUXURY_VALUE, MASK_SUM, PRESTIGE, SCANDAL
from .state import OVER, State

DEBT_PENALTY = 5


def status_of(cards: tuple[str, ...] | list[str]) -> int:
    """Luxuries, then −5 for Debt, then ×2 per Prestige, then Scandal halves (floor)."""
    status = sum(LUXURY_VALUE.get(c, 0) for c in cards)
    if DEBT in cards:
        status -= DEBT_PENALTY
    status *= 2 ** cards.count(PRESTIGE)
    if SCANDAL in cards:
        status //= 2  # floor division: −3 halves to −2
    return status


class StatusStep(NamedTuple):
    """One step of the scoring of a hand of status cards: ``kind`` (luxuries, debt,
    prestige, scandal), the status after it, and its ``operand``: the luxuries' values,
    the Debt penalty, the Prestige factor, or 2 for Scandal's halving."""

    kind: str
    status: int
    operand: Any


def status_steps(cards: tuple[str, ...] | list[str]) -> tuple[StatusStep, ...]:
    """How ``status_of(cards)`` is reached, step by step, in the scoring order."""
    values = tuple(sorted(LUXURY_VALUE[c] for c in cards if c in LUXURY_VALUE))
    status = sum(values)
    steps = [StatusStep("luxuries", status, values)]
    if DEBT in cards:
        status -= DEBT_PENALTY
        steps.append(StatusStep("debt", status, DEBT_PENALTY))
    if cards.count(PRESTIGE):
        factor = 2 ** cards.count(PRESTIGE)
        status *= factor
        steps.append(StatusStep("prestige", status, factor))
    if SCANDAL in cards:
        status //= 2
        steps.append(StatusStep("scandal", status, 2))
    return tuple(steps)


def money_of(state: State, seat: int) -> int:
    """Money in hand, doubled when the player owns Gambling."""
    money = MASK_SUM[state.hands[seat]]
    return money * 2 if GAMBLING in state.owned[seat] else money


def score_details(state: State) -> list[dict[str, Any]]:
    """Per seat: the breakdown that explains the final result (for pages and e-mails).

    Valid at any time; only meaningful once the game is over.
    """
    moneys = [money_of(state, seat) for seat in range(state.players)]
    poorest = min(moneys)
    everyone_poorest = all(m == poorest for m in moneys)
    rows: list[dict[str, Any]] = []
    for seat in range(state.players):
        cards = state.owned[seat]
        luxuries = sorted((c for c in cards if c in LUXURY_VALUE), key=LUXURY_VALUE.__getitem__)
        rows.append(
            {
                "seat": seat,
                "luxuries": luxuries,
                "luxury_total": sum(LUXURY_VALUE[c] for c in luxuries),
                "debt": DEBT in cards,
                "prestige": cards.count(PRESTIGE),
                "scandal": SCANDAL in cards,
                "gambling": GAMBLING in cards,
                "hand_money": MASK_SUM[state.hands[seat]],
                "money": moneys[seat],
                "status": status_of(cards),
                "top_luxury": max((LUXURY_VALUE[c] for c in luxuries), default=0),
                "cast_out": moneys[seat] == poorest or everyone_poorest,
            }
        )
    contenders = [r for r in rows if not r["cast_out"]]
    winners: set[int] = set()
    decided_by = None
    if contenders:
        best = contenders
        for key, label in (("status", "status"), ("money", "money"), ("top_luxury", "top luxury")):
            top = max(r[key] for r in best)
            narrowed = [r for r in best if r[key] == top]
            if len(narrowed) < len(best) and len(best) > 1:
                decided_by = label
            best = narrowed
            if len(best) == 1:
                break
        else:
            decided_by = "shared"
        winners = {r["seat"] for r in best}
    for r in rows:
        r["winner"] = r["seat"] in winners
        r["decided_by"] = decided_by if r["winner"] else None
    return rows


def result(state: State) -> dict[str, Any] | None:
    """``None`` while the game runs, else the final result in seat order (docs/api.md)."""
    if state.phase != OVER:
        return None
    return {
        "players": [
            {k: r[k] for k in ("seat", "money", "status", "cast_out", "winner")}
            for r in score_details(state)
        ]
    }


def final_ranking(details: list[dict[str, Any]]) -> list[int]:
    """The place of each seat (1 = first; ties share a place, the next place skips):
    winners, then the others not cast out, ordered as the win is decided (status, then
    money, then the top luxury), then the cast-out players.

    ``details`` is ``score_details(state)`` (seat order).
    """

    def key(row: dict[str, Any]) -> tuple[int, int, int, int]:
        if row["winner"]:
            return (0, 0, 0, 0)
        if row["cast_out"]:
            return (2, 0, 0, 0)
        return (1, -row["status"], -row["money"], -row["top_luxury"])

    keys = [key(row) for row in details]
    return [1 + sum(other < mine for other in keys) for mine in keys]
