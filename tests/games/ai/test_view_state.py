"""Rebuilding a State from a view, and the money arithmetic the bots use."""

from __future__ import annotations

import random

from games.ai.bids import FLEX, cheapest_over
from games.ai.view_state import determinise, money_from_log, state_from_view, unseen_cards
from games.engine import OVER, apply_action, new_game, player_view, random_action
from games.engine.cards import FULL_HAND, MASK_SUM, MONEY
from games.engine.state import SEALED

from .positions import ADVANCED


def true_secrets(state, seat):
    deck = list(state.setup_deck[state.deck_pos :])
    sealed = {s: v for s, v in enumerate(state.sealed) if s != seat and v > 0}
    return deck, sealed


def test_state_from_view_with_the_true_secrets_is_the_real_state():
    rng = random.Random(5)
    checked = 0
    for game in range(30):
        state = new_game(
            players=3 + game % 3, seed=f"rt-{game}", advanced=ADVANCED if game % 2 else ()
        )
        while True:
            for seat in range(state.players):
                view = player_view(state, seat, memory_aid=True).to_json()
                deck, sealed = true_secrets(state, seat)
                rebuilt = state_from_view(view, deck, sealed)
                assert rebuilt == state
                assert player_view(rebuilt, seat, memory_aid=True).to_json() == view
                # Without the memory aid the hands come from the public log: same state.
                assert state_from_view(player_view(state, seat).to_json(), deck, sealed) == state
                checked += 1
            if state.phase == OVER:
                break
            state = apply_action(state, random_action(state, rng))
    assert checked > 1000


def test_money_from_log_matches_the_memory_aid():
    rng = random.Random(6)
    for game in range(20):
        state = new_game(players=4, seed=f"log-{game}", advanced=ADVANCED)
        while state.phase != OVER:
            view = player_view(state, None).to_json()
            hands, bids, discards = money_from_log(view)
            assert (tuple(hands), tuple(bids), tuple(discards)) == (
                state.hands,
                state.bids,
                state.discards,
            )
            state = apply_action(state, random_action(state, rng))


def test_determinise_keeps_everything_the_seat_sees():
    rng = random.Random(7)
    for game in range(20):
        state = new_game(players=5, seed=f"det-{game}", advanced=ADVANCED)
        while state.phase != OVER:
            for seat in range(state.players):
                view = player_view(state, seat, memory_aid=True).to_json()
                sample = determinise(state_from_view(view), seat, rng)
                assert player_view(sample, seat, memory_aid=True).to_json() == view
                assert sorted(sample.setup_deck[sample.deck_pos :]) == sorted(unseen_cards(view))
                if state.phase == SEALED:
                    for other, choice in enumerate(sample.sealed):
                        if choice > 0:
                            assert sample.hands[other] & (1 << MONEY.index(choice))
            state = apply_action(state, random_action(state, rng))


def test_cheapest_over_finds_the_smallest_sum_above_an_amount():
    rng = random.Random(8)
    for _ in range(400):
        hand = rng.randrange(1, FULL_HAND + 1)
        amount = rng.randrange(-1000, MASK_SUM[hand] + 3000)
        sums = [
            MASK_SUM[m] for m in range(1, FULL_HAND + 1) if not m & ~hand and MASK_SUM[m] > amount
        ]
        mask = cheapest_over(hand, amount)
        if not sums:
            assert mask == 0
        else:
            assert not mask & ~hand and MASK_SUM[mask] == min(sums)


def test_equal_sums_keep_the_most_flexible_hand():
    hand = FULL_HAND
    mask = cheapest_over(hand, 5000)  # 6000 alone, or 4000+2000, 3000+2000+1000, ...
    assert MASK_SUM[mask] == 6000
    assert FLEX[hand ^ mask] == max(
        FLEX[hand ^ m] for m in range(1, FULL_HAND + 1) if MASK_SUM[m] == 6000
    )
    assert FLEX[0] == 1 and FLEX[FULL_HAND] == 107  # every total from 0 to 106,000
