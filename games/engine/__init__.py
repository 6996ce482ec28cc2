"""The rules of High Society, pure Python (no Django): see docs/rules.md and docs/api.md.

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
from .redaction import (
    LegalSummary,
    PlayerView,
    SeatView,
    auction_kind,
    event_json,
    legal_summary,
    player_view,
)
from .rules import (
    IllegalAction,
    apply_action,
    bid_problem,
    can_bid,
    forced_action,
    high_bid,
    is_misfortune_auction,
    legal_actions,
    new_game,
    random_action,
    seats_to_act,
    seats_to_act_in,
)
from .scoring import StatusStep, final_ranking, result, score_details, status_of, status_steps
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
    "LegalSummary",
    "PlayerView",
    "SeatView",
    "StatusStep",
    "State",
    "apply_action",
    "bid_problem",
    "auction_kind",
    "can_bid",
    "card_kind",
    "card_name",
    "deck_cards",
    "event_json",
    "forced_action",
    "high_bid",
    "is_luxury",
    "is_misfortune_auction",
    "legal_actions",
    "legal_summary",
    "money_text",
    "new_game",
    "player_view",
    "random_action",
    "final_ranking",
    "result",
    "score_details",
    "seats_to_act",
    "seats_to_act_in",
    "status_of",
    "status_steps",
]
