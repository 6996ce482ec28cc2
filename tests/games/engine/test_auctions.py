"""Scenario tests for docs/rules.md "A round": normal and misfortune auctions, forced passes."""

from __future__ import annotations

import pytest

from games.engine import (
    AUCTION,
    IllegalAction,
    apply_action,
    forced_action,
    legal_actions,
    player_view,
)
from games.engine.cards import FULL_HAND, MASK_SUM, MONEY

from .scenario import play, run, start


def hand(state, seat):
    return player_view(state, seat).to_json()["hand"]


def test_starting_player_reveals_the_top_card_and_bids_first():
    state = start("lux7 lux1", first=2)
    assert state.card == "lux7"
    assert state.phase == AUCTION
    assert state.turn == 2
    assert player_view(state, None).to_json()["log"][0] == {"type": "reveal", "seat": 2, "card": "lux7"}


def test_turns_go_clockwise_and_skip_players_who_passed():
    state = play("lux7", "0 bid 1000 | 1 pass | 2 bid 2000", players=4)
    assert state.turn == 3
    state = run(state, "3 bid 3000")
    assert state.turn == 0  # seat 1 passed, so after 0 comes 2
    state = run(state, "0 bid 3000")  # 1000 + 3000 = 4000 > 3000
    assert state.turn == 2


def test_raising_adds_cards_and_face_up_cards_stay():
    state = play("lux7", "0 bid 1000 | 1 bid 2000 | 2 pass | 0 bid 2000")
    assert player_view(state, None).to_json()["seats"][0]["bid"] == [1000, 2000]
    assert player_view(state, None).to_json()["seats"][0]["bid_total"] == 3000
    assert 1000 not in hand(state, 0) and 2000 not in hand(state, 0)


def test_bid_must_beat_every_other_bid_strictly_and_no_change_is_made():
    state = play("lux7", "0 bid 3000")
    with pytest.raises(IllegalAction, match="more than 3,000; yours would be 3,000"):
        apply_action(state, {"seat": 1, "type": "bid", "cards": [3000]})
    with pytest.raises(IllegalAction, match="more than 3,000; yours would be 2,000"):
        apply_action(state, {"seat": 1, "type": "bid", "cards": [2000]})
    # Overpaying is allowed; no change is given back.
    state = run(state, "1 bid 25000")
    assert player_view(state, None).to_json()["seats"][1]["bid_total"] == 25000


def test_last_remaining_player_wins_at_once_pays_and_starts_the_next_round():
    state = play("lux7 lux2", "0 bid 1000 | 1 bid 3000 | 2 pass | 0 pass")
    assert state.owned[1] == ("lux7",)
    assert MASK_SUM[state.discards[1]] == 3000
    assert MASK_SUM[state.hands[1]] == sum(MONEY) - 3000
    assert MASK_SUM[state.hands[0]] == sum(MONEY)  # the passer took their 1,000 back
    assert state.bids == (0, 0, 0)
    assert state.card == "lux2" and state.leader == 1 and state.turn == 1


def test_if_nobody_bids_the_last_remaining_player_gets_the_card_free():
    state = play("lux4 lux2", "0 pass | 1 pass")
    assert state.owned[2] == ("lux4",)
    assert state.hands[2] == FULL_HAND and state.discards[2] == 0
    assert state.leader == 2


def test_the_winner_takes_no_further_turn_even_if_they_are_next():
    state = play("prestige lux1", "0 bid 1000 | 1 pass | 2 pass")
    assert state.owned[0] == ("prestige",)
    assert state.card == "lux1" and state.turn == 0


def test_misfortune_first_passer_takes_the_card_and_keeps_money_others_pay():
    state = play("debt lux1", "0 bid 1000 | 1 bid 2000 | 2 bid 4000 | 0 bid 6000 | 1 pass")
    assert state.owned[1] == ("debt",)
    assert state.hands[1] == FULL_HAND  # took their 2,000 back
    assert MASK_SUM[state.discards[0]] == 7000
    assert MASK_SUM[state.discards[2]] == 4000
    assert state.bids == (0, 0, 0)
    assert state.leader == 1 and state.card == "lux1"
    take = player_view(state, None).to_json()["log"][-2]
    assert take == {
        "type": "take",
        "seat": 1,
        "card": "debt",
        "payments": [{"seat": 0, "cards": [1000, 6000]}, {"seat": 2, "cards": [4000]}],
    }


def test_misfortune_starting_player_passing_at_once_takes_it_and_nobody_pays():
    state = play("scandal lux1", "0 pass", first=0)
    assert state.owned[0] == ("scandal",)
    assert state.discards == (0, 0, 0)
    assert state.hands == (FULL_HAND,) * 3
    assert state.leader == 0


def test_misfortune_bids_must_also_beat_the_others():
    state = play("debt", "0 bid 2000")
    with pytest.raises(IllegalAction, match="more than 2,000"):
        apply_action(state, {"seat": 1, "type": "bid", "cards": [1000]})


def test_a_player_without_money_can_only_pass_and_the_pass_is_forced():
    # Seat 0 spends everything on lux10, then cannot bid on lux9.
    everything = " ".join(str(v) for v in MONEY)
    state = play("lux10 lux9", f"0 bid {everything} | 1 pass | 2 pass", first=0)
    assert state.hands[0] == 0 and state.turn == 0 and state.card == "lux9"
    assert legal_actions(state) == [{"seat": 0, "type": "pass"}]
    assert forced_action(state) == {"seat": 0, "type": "pass"}


def test_a_hand_that_cannot_beat_the_high_bid_is_a_forced_pass():
    state = play("lux10 lux9", "0 bid 25000 20000 15000 12000 10000 8000 6000 | 1 pass | 2 pass")
    # Seat 0 has 1,000 + 2,000 + 3,000 + 4,000 = 10,000 left.
    state = run(state, "0 pass | 1 bid 12000")
    assert state.turn == 2
    state = run(state, "2 pass")
    # Only seat 1 remains after 0 and 2 passed: wins lux9.
    assert state.owned[1] == ("lux9",)
    state2 = play("lux10 lux9", "0 bid 25000 20000 15000 12000 10000 8000 6000 | 1 pass | 2 pass | 0 bid 1000 | 1 bid 12000")
    assert state2.turn == 2
    state2 = run(state2, "2 pass")
    assert state2.turn == 0
    assert forced_action(state2) == {"seat": 0, "type": "pass"}
    assert legal_actions(state2) == [{"seat": 0, "type": "pass"}]


def test_forced_action_is_none_when_a_bid_is_possible():
    assert forced_action(start("lux1")) is None


def test_legal_actions_at_an_opening_bid_list_every_subset_once_in_order():
    actions = legal_actions(start("lux5"))
    assert len(actions) == 2048
    assert actions[0] == {"seat": 0, "type": "pass"}
    assert actions[1] == {"seat": 0, "type": "bid", "cards": [1000]}
    totals = [sum(a["cards"]) for a in actions[1:]]
    assert totals == sorted(totals)
    assert len({tuple(a["cards"]) for a in actions[1:]}) == 2047


def test_legal_bids_are_exactly_those_apply_action_accepts():
    state = play("lux5", "0 bid 4000 2000 | 1 bid 10000")
    listed = {tuple(a["cards"]) for a in legal_actions(state) if a["type"] == "bid"}
    assert listed
    for act in legal_actions(state)[1:]:
        assert sum(act["cards"]) + 6000 > 10000
    # A sample of unlisted subsets is refused.
    for cards in ([1000], [3000], [1000, 3000]):
        assert tuple(cards) not in listed
        with pytest.raises(IllegalAction):
            apply_action(state, {"seat": 0, "type": "bid", "cards": cards})
