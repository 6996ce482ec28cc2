"""What a change to a game announces, for the parts of the site that react to it.

The services change games and announce what happened; they know nothing of e-mails,
bots' tasks or ratings.  Those listen (Django signals, connected when the app is
ready: ``games.apps``):

- ``bots_to_act`` — after the commit: a bot is to act at ``version``.  ``by_bot`` is
  True when a bot's own move made it so: the bot task that made that move plays on by
  itself, so nothing more is queued; ``stalled`` when the stalled sweep found the game
  waiting.  Listener: ``games.tasks`` queues ``bot_move``, one task per game at a time.
- ``turn_started`` — after the commit: a new turn began in which the people
  ``user_ids`` are to act.  Listener: ``games.tasks`` owes them a turn e-mail unless
  they have the game open.
- ``notices_owed`` — after the commit: e-mails (``Notification`` rows ``ids``) wait to
  be sent.  Listener: ``games.tasks`` sends them.
- ``pushes_owed`` — after an outbox row was sent: its Web Push notification
  (``payload``, made by ``games.push.push_payload``) goes to the subscriptions ``ids``.
  Listener: ``games.tasks`` queues ``push_send`` for each.
- ``game_finished`` — inside the transaction that ends the game, so that a result is
  never stored without its consequences.  Listeners: ``games.ratings`` records the
  statistics and ratings; ``games.tasks`` owes the people at the table a game-over
  e-mail (sent after the commit, unless they watched the end at the board).
- ``invited`` — inside the transaction: ``by_user_id`` invited the people ``user_ids``
  to the table ``game_id``.  Listener: ``games.tasks`` owes each an invitation e-mail
  (the rows commit with the invitation: the invitation limits count them; sent after
  the commit).
- ``declined`` — inside the transaction: ``by_user_id`` declined their invitation to
  the table ``game_id`` (answering no, or leaving before they answered), whose host is
  ``host_id``.  Listener: ``games.tasks`` owes the host an e-mail saying so (the row
  commits with the decline; sent after the commit).
- ``seat_handed_over`` — inside the transaction in which the table's creator handed
  ``game``'s seat ``seat`` (its player absent, deadlines missed) to a bot, so that the
  news is never lost while the change stands.  Listener: ``games.tasks`` owes that
  player an e-mail saying so (sent after the commit).
- ``table_closed`` — inside the transaction in which the table ``game_id`` closed
  before its game started (``why``): its host ``host_id`` "left" it, the host's account
  is "gone" (suspended or deleted), or it "expired": it waited
  ``WAITING_TABLE_DAYS`` days unchanged.  ``user_ids``: the people who had a seat there
  or an invitation to one (the host too when it expired).  Listener: ``games.tasks``
  owes each an e-mail saying so (sent after the commit).
- ``chat_reported`` — after the commit: a player reported a chat line nobody had an
  open report of (``report_id``).  Listener: ``games.tasks`` mails the moderators
  (settings.MANAGERS), once per line.
- ``board_changed`` — after the commit: what the board of ``game_id`` shows changed
  (a move, a seat, a resignation, a deadline, a chat message); ``version`` is the
  game's version now.  Listener: ``games.live`` tells every open board of that game,
  which then fetches its partial as a poll would.  Only the id and the version: never
  anything hidden.

After the commit nothing can undo the change: a listener that cannot do its work
(the broker is down) logs it, and the sweeps (``games.deadlines``) catch up.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

bots_to_act = Signal()  # game_id, version, by_bot, stalled (optional)
turn_started = Signal()  # game_id, turn (the turn's key), user_ids
notices_owed = Signal()  # ids
pushes_owed = Signal()  # ids (push subscriptions), payload
game_finished = Signal()  # game, seats (inside the transaction)
invited = Signal()  # game_id, user_ids, by_user_id (inside the transaction)
declined = Signal()  # game_id, host_id, by_user_id (inside the transaction)
seat_handed_over = Signal()  # game, seat (inside the transaction)
table_closed = Signal()  # game_id, host_id, user_ids, why (inside the transaction)
chat_reported = Signal()  # report_id
board_changed = Signal()  # game_id, version


def announce(signal: Signal, **fields: Any) -> None:
    """Tell the listeners of ``signal`` once the current transaction commits (at once
    outside a transaction).  A rolled-back change announces nothing."""
    transaction.on_commit(lambda: announce_now(signal, **fields))


def announce_now(signal: Signal, **fields: Any) -> None:
    """Tell the listeners now.  Listeners guard themselves: one that queues a task logs
    a broker outage instead of raising (``games.tasks``)."""
    signal.send(sender=None, **fields)
