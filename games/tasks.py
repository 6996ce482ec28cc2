"""Celery adapters for the games app (STYLE.md, practice 8): load by id, call a service.

``bot_move`` is queued on commit by the services whenever a bot is to act, with the
version it was queued for; ``game_bot_move`` does nothing when the game has moved on,
so a task delivered twice (or after a crashed worker's redelivery) does no harm.
"""

from celery import shared_task

from games.services import game_bot_move


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_move(game_id: int, version: int) -> bool:
    """Play the bots' turn of game ``game_id`` if it is still at ``version``."""
    return game_bot_move(game_id=game_id, expected_version=version)
