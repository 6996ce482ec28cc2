"""The rules of High Society, pure Python (no Django): see RULES.md and API.md section 1.

    >>> from games.engine import new_game, legal_actions, apply_action, player_view, result
    >>> state = new_game(players=3, seed=1)
    >>> state = apply_action(state, {"seat": state.turn, "type": "pass"})
"""

from .cards import (
    ADVANCED_CARDS,
    BASE_CARDS,
    LUXURY_VALUE,
    MONEY,
    card_kind,
    card_name,
    deck_cards,
    is_luxury,
    money_text,
)
from .redaction import auction_kind, describe_event, event_json, player_view
from .rules import (
    IllegalAction,
    apply_action,
    can_bid,
    forced_action,
    high_bid,
    is_misfortune_auction,
    legal_actions,
    new_game,
    random_action,
    seats_to_act,
)
from .scoring import result, score_details, status_of
from .state import AUCTION, OVER, SEALED, THEFT_CHOICE, State

__all__ = [
    "ADVANCED_CARDS",
    "AUCTION",
    "BASE_CARDS",
    "LUXURY_VALUE",
    "MONEY",
    "OVER",
    "SEALED",
    "THEFT_CHOICE",
    "IllegalAction",
    "State",
    "apply_action",
    "auction_kind",
    "can_bid",
    "card_kind",
    "card_name",
    "deck_cards",
    "describe_event",
    "event_json",
    "forced_action",
    "high_bid",
    "is_luxury",
    "is_misfortune_auction",
    "legal_actions",
    "money_text",
    "new_game",
    "player_view",
    "random_action",
    "result",
    "score_details",
    "seats_to_act",
    "status_of",
]
