"""Scenario tests for Theft, Excursions, Gambling, Yacht Club, the end and scoring."""

from __future__ import annotations

import pytest

from games.engine import (
    OVER,
    SEALED,
    THEFT_CHOICE,
    IllegalAction,
    apply_action,
    legal_actions,
    player_view,
    result,
    score_details,
    status_of,
)
from games.engine.cards import FULL_HAND, MASK_SUM, MONEY

from .scenario import play, run, start

ADV = ("gambling", "excursions", "yacht")

# ----------------------------------------------------------------- Theft


def test_theft_with_luxuries_waits_for_the_takers_choice():
    state = play("lux3 lux8 theft lux1", "0 pass | 1 pass | 2 pass | 0 pass | 1 pass")
    # Seat 2 got lux3 free, seat 1 got lux8 free, seat 1 leads Theft and passes at once.
    assert state.owned[1] == ("lux8", "theft")
    assert state.phase == THEFT_CHOICE and state.turn == 1
    assert legal_actions(state) == [{"seat": 1, "type": "discard", "card": "lux8"}]
    state = run(state, "1 discard lux8")
    assert state.owned[1] == ()
    assert state.removed == ("theft", "lux8")
    assert state.card == "lux1" and state.leader == 1


def test_theft_choice_lists_every_luxury_and_refuses_others():
    state = play(
        "lux3 lux8 prestige theft",
        "0 bid 1000 | 1 pass | 2 pass | 0 bid 2000 | 1 pass | 2 pass | 0 bid 3000 | 1 pass | 2 pass | 0 pass",
    )
    assert state.owned[0] == ("lux3", "lux8", "prestige", "theft")
    assert [a["card"] for a in legal_actions(state)] == ["lux3", "lux8"]
    for bad, message in (
        ({"seat": 0, "type": "discard", "card": "prestige"}, "luxury"),
        ({"seat": 0, "type": "discard", "card": "lux9"}, "do not own"),
        ({"seat": 1, "type": "discard", "card": "lux3"}, "no Theft for you"),
        ({"seat": 0, "type": "pass"}, "Theft's owner must first choose"),
    ):
        with pytest.raises(IllegalAction, match=message):
            apply_action(state, bad)
    state = run(state, "0 discard lux3")
    assert state.owned[0] == ("lux8", "prestige")


def test_theft_without_luxury_stays_pending_and_takes_the_next_luxury_at_once():
    state = play("theft prestige lux9 lux2", "0 pass | 0 bid 1000 | 1 pass | 2 pass")
    # Seat 0 took Theft (no luxury, so pending), then won Prestige: Prestige is kept.
    assert state.owned[0] == ("theft", "prestige")
    assert player_view(state, None).to_json()["seats"][0]["theft_pending"] is True
    state = run(state, "0 bid 2000 | 1 pass | 2 pass")
    assert state.owned[0] == ("prestige",)
    assert state.removed == ("theft", "lux9")
    assert player_view(state, None).to_json()["log"][-2] == {"type": "theft", "seat": 0, "card": "lux9", "automatic": True}
    state = run(state, "0 bid 3000 | 1 pass | 2 pass")
    assert state.owned[0] == ("prestige", "lux2")


def test_pending_theft_takes_a_luxury_won_for_free_too():
    state = play("theft lux9", "0 pass | 0 pass | 1 pass")
    # Seat 2 remains and gets lux9; seat 0 keeps its pending Theft.
    assert state.owned[2] == ("lux9",)
    # Seat 0 takes Theft; seat 1 wins Prestige and leads lux9; seats 1 and 2 pass.
    state = play("theft prestige lux9", "0 pass | 0 pass | 1 bid 1000 | 2 pass | 1 pass | 2 pass")
    assert state.owned[0] == ()
    assert state.removed == ("theft", "lux9")
    assert state.hands[0] == FULL_HAND


# ----------------------------------------------------------------- advanced cards


def test_excursions_returns_each_other_players_highest_discard():
    state = play(
        "lux1 lux2 excursions lux3",
        "0 bid 1000 3000 | 1 bid 6000 | 2 pass | 0 pass"  # 1 pays 6000 for lux1
        " | 1 pass | 2 bid 2000 15000 | 0 pass"  # 2 pays 17000 for lux2
        " | 2 pass | 0 pass",  # seat 1 gets Excursions free
        advanced=ADV,
    )
    assert "excursions" in state.owned[1]
    assert MASK_SUM[state.discards[1]] == 6000  # the claimer keeps its discards
    assert MASK_SUM[state.discards[2]] == 2000  # 15,000 went back to hand
    assert state.hands[2] & 1 << MONEY.index(15000)
    assert state.discards[0] == 0
    log = player_view(state, None).to_json()["log"]
    assert {"type": "return", "seat": 2, "card": 15000} in log


def test_excursions_effect_happens_even_when_pending_theft_removes_it():
    state = play(
        "theft lux1 excursions",
        "0 pass"  # seat 0: pending Theft
        " | 0 pass | 1 bid 4000 | 2 pass",  # seat 1 pays 4000 for lux1
        advanced=ADV,
    )
    state = run(state, "1 pass | 2 pass")  # seat 0 gets Excursions free
    assert state.owned[0] == ()
    assert state.removed == ("theft", "excursions")
    assert state.discards[1] == 0 and state.hands[1] == FULL_HAND


def test_gambling_doubles_money_and_is_never_taken_by_theft():
    state = play("theft gambling lux2", "0 pass | 0 bid 1000 | 1 pass | 2 pass", advanced=ADV)
    assert state.owned[0] == ("theft", "gambling")
    details = score_details(state)
    assert details[0]["money"] == 2 * (sum(MONEY) - 1000)
    assert details[0]["gambling"] is True


def test_yacht_sealed_highest_unique_wins_and_all_chosen_cards_are_discarded():
    state = play("yacht lux1", players=4, first=1, advanced=ADV)
    assert state.phase == SEALED
    assert sorted({a["seat"] for a in legal_actions(state)}) == [0, 1, 2, 3]
    state = run(state, "0 seal 25000 | 1 seal 25000 | 2 seal 20000")
    assert state.phase == SEALED
    state = run(state, "3 seal 1000")
    assert state.owned[2] == ("yacht",)
    for seat, value in ((0, 25000), (1, 25000), (2, 20000), (3, 1000)):
        assert MASK_SUM[state.discards[seat]] == value
    assert state.leader == 2 and state.card == "lux1"
    sealed = [e for e in player_view(state, None).to_json()["log"] if e["type"] == "sealed"][0]
    assert sealed["winner"] == 2


def test_yacht_without_a_unique_value_leaves_the_game_and_the_same_player_leads():
    state = play("yacht lux1", "0 seal 3000 | 1 seal 3000 | 2 seal 3000", first=1, advanced=ADV)
    assert state.removed == ("yacht",)
    assert all(MASK_SUM[d] == 3000 for d in state.discards)
    assert state.leader == 1 and state.card == "lux1"


def test_yacht_players_without_money_take_no_part():
    everything = " ".join(str(v) for v in MONEY)
    state = play("lux10 yacht", f"0 bid {everything} | 1 pass | 2 pass", advanced=ADV)
    assert state.phase == SEALED
    assert {a["seat"] for a in legal_actions(state)} == {1, 2}
    with pytest.raises(IllegalAction, match="take no part"):
        apply_action(state, {"seat": 0, "type": "sealed_bid", "card": 1000})
    state = run(state, "1 seal 1000 | 2 seal 2000")
    assert state.owned[2] == ("yacht",)


def test_yacht_leaves_at_once_when_nobody_can_bid():
    everything = " ".join(str(v) for v in MONEY)
    state = play(
        "lux10 lux9 lux8 yacht lux1",
        f"0 bid {everything} | 1 pass | 2 pass | 0 pass | 1 bid {everything} | 2 pass"
        f" | 1 pass | 2 bid {everything} | 0 pass",
        advanced=ADV,
    )
    # Seat 2 won lux8 with everything; nobody holds money; the Yacht Club is removed.
    assert state.hands == (0, 0, 0)
    assert "yacht" in state.removed
    assert state.card == "lux1" and state.leader == 2
    assert {"type": "sealed", "choices": [], "winner": None} in player_view(state, None).to_json()["log"]


def test_yacht_won_with_pending_theft_is_removed():
    state = play("theft yacht", "0 pass | 0 seal 25000 | 1 seal 1000 | 2 seal 2000", advanced=ADV)
    assert state.owned[0] == ()
    assert state.removed == ("theft", "yacht")


def test_sealed_choices_are_refused_when_repeated_or_not_held():
    state = play("yacht", "0 seal 2000", advanced=ADV)
    with pytest.raises(IllegalAction, match="already chosen"):
        apply_action(state, {"seat": 0, "type": "sealed_bid", "card": 3000})
    with pytest.raises(IllegalAction, match="money card"):
        apply_action(state, {"seat": 1, "type": "sealed_bid", "card": 7000})
    with pytest.raises(IllegalAction, match="sealed choice"):
        apply_action(state, {"seat": 1, "type": "bid", "cards": [1000]})


# ----------------------------------------------------------------- the end and scoring


def test_the_fourth_game_end_card_ends_the_game_at_once_and_counts_for_nobody():
    state = play(
        "prestige prestige scandal prestige lux1",
        "0 bid 1000 | 1 pass | 2 pass | 0 pass | 1 pass",
    )
    # seat 0: prestige (1000); seat 2 got prestige free; seat 2 leads scandal.
    state = run(state, "2 pass")
    assert state.phase == OVER
    assert sum(c == "prestige" for owned in state.owned for c in owned) == 2
    assert legal_actions(state) == []
    assert player_view(state, None).to_json()["deck_remaining"] == 12
    assert "lux1" not in player_view(state, None).to_json()["revealed"]
    with pytest.raises(IllegalAction, match="over"):
        apply_action(state, {"seat": 0, "type": "pass"})
    assert result(state) is not None


def test_status_order_debt_then_prestige_then_scandal_rounding_down():
    assert status_of(("lux3", "lux9", "debt", "prestige", "prestige", "scandal")) == 14
    assert status_of(("lux2", "debt", "scandal")) == -2  # -3 halves to -2
    assert status_of(("prestige", "prestige", "prestige", "lux1")) == 8
    assert status_of(("debt",)) == -5
    assert status_of(("excursions", "yacht", "gambling")) == 17


def _finished(owned, hands):
    """A finished 3- to 5-player state with chosen cards and hands (as money masks)."""
    state = start("prestige prestige prestige scandal", players=len(owned))
    while state.phase != OVER:
        state = apply_action(state, {"seat": state.turn, "type": "pass"})
    return state._replace(owned=tuple(tuple(o) for o in owned), hands=tuple(hands))


def mask(*values):
    return sum(1 << MONEY.index(v) for v in values)


def winners(state):
    return [p["seat"] for p in result(state)["players"] if p["winner"]]


def test_the_poorest_is_cast_out_even_with_the_highest_status():
    state = _finished([["lux10"], ["lux1"], ["lux2"]], [mask(1000), mask(2000), mask(3000)])
    res = result(state)["players"]
    assert [p["cast_out"] for p in res] == [True, False, False]
    assert winners(state) == [2]


def test_all_players_tied_for_least_money_are_cast_out():
    state = _finished([["lux10"], ["lux9"], ["lux1"]], [mask(1000), mask(1000), mask(2000)])
    assert [p["cast_out"] for p in result(state)["players"]] == [True, True, False]
    assert winners(state) == [2]


def test_when_everyone_ties_for_least_money_nobody_wins():
    state = _finished([["lux10"], ["lux9"], ["lux1"]], [mask(1000), mask(1000), mask(1000)])
    assert all(p["cast_out"] for p in result(state)["players"])
    assert winners(state) == []


def test_status_tie_goes_to_more_money_then_top_luxury_then_shared():
    state = _finished([["lux5", "lux4"], ["lux9"], ["lux1"]], [mask(3000), mask(4000), mask(1000)])
    assert winners(state) == [1]  # 9 vs 9: more money
    state = _finished([["lux5", "lux4"], ["lux9"], ["lux1"]], [mask(4000), mask(4000), mask(1000)])
    assert winners(state) == [1]  # same money: lux9 beats lux5
    state = _finished([["lux9"], ["prestige", "lux1", "lux3", "debt"], ["lux1"]],
                      [mask(4000), mask(4000), mask(1000)])
    # seat 1: (1+3-5)*2 = -2; seat 0 wins on status.
    assert winners(state) == [0]
    state = _finished([["lux4", "lux5"], ["lux9"], ["lux2", "lux7"], ["lux1"]],
                      [mask(4000), mask(4000), mask(4000), mask(1000)])
    # 9 / 9 / 9, same money: top luxuries 5, 9, 7 -> seat 1.
    assert winners(state) == [1]


def test_a_complete_tie_is_shared():
    state = _finished([["lux9", "debt", "prestige"], ["lux8", "prestige", "lux1", "debt"], ["lux1"]],
                      [mask(4000), mask(4000), mask(1000)])
    # (9-5)*2 = 8 and (9-5)*2 = 8, money equal, top luxuries 9 vs 8 -> seat 0.
    assert winners(state) == [0]
    state = _finished([["lux9"], ["lux9"], ["lux1"]], [mask(4000), mask(4000), mask(1000)])
    # Not reachable with one lux9 in the deck, but the rule is what the books say.
    assert winners(state) == [0, 1]
    assert score_details(state)[0]["decided_by"] == "shared"


def test_gambling_doubling_decides_cast_out_and_money_tie_break():
    state = _finished([["gambling"], ["lux9"], ["lux2"]], [mask(1000), mask(1000, 2000), mask(3000)])
    # Seat 0's 1,000 counts 2,000: seat 0 and seat 1 (3,000)? no: seat 0 has 2,000 < 3,000 = least.
    assert [p["money"] for p in result(state)["players"]] == [2000, 3000, 3000]
    assert [p["cast_out"] for p in result(state)["players"]] == [True, False, False]
    state = _finished([["gambling", "lux9"], ["lux9"], ["lux1"]], [mask(2000), mask(3000), mask(1000)])
    assert winners(state) == [0]  # 9 vs 9 on status, 4,000 beats 3,000


def test_result_is_none_while_the_game_runs():
    assert result(start("lux1")) is None
