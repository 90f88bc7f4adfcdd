"""What ``games`` announces to the apps above it, so that it never imports them.

``match_finished`` is sent when a match ends with a result (not when it is aborted), from
inside the transaction that writes the result, as ``match_finished.send(sender=Match,
match=match)`` with the match's table loaded. Ratings and tournaments listen to it and enqueue
their own work with ``durak_site.tasks.enqueue_on_commit``: nothing they start runs before the
result is committed, and nothing runs at all for a finish that rolls back.

Why a signal and not an import: the match does not know who cares that it ended (lila's
``Finisher`` publishes "game finished" on a bus; HackSoft's styleguide keeps signals for
"connecting things that should not know about each other"). A receiver must not fail the
finishing move: each one only enqueues a task.
"""

from django.dispatch import Signal

match_finished = Signal()

#: Sent when a table deals a match once its wait for the players' values is over (the last value
#: came, or the deadline), inside that transaction, as ``match_dealt.send(sender=Match,
#: match=match)`` with the match's table loaded. No request waits for such a deal, so the pages
#: that show the table's games (a tournament's) learn of it only this way; a deal made within a
#: request or a tournament's own pass is announced by it.
match_dealt = Signal()

#: Sent when a player agrees to play again at a finished match's table, inside the transaction,
#: as ``again_wanted.send(sender=Match, match=match, user_id=..., new_match=...)`` (``new_match``
#: is the match dealt when that was the last agreement, else ``None``): the others hear the offer.
again_wanted = Signal()
