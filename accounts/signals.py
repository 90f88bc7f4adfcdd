"""What ``accounts`` announces to the apps above it, so that it never imports them.

``account_deleted`` is sent when an account is deleted (``accounts.services.user_anonymise``),
from inside the deletion's transaction, as ``account_deleted.send(sender=User, user=user)`` with
the row already anonymised. Each app frees what the account still holds there: live play
resigns its matches in play and gives up its seats (``play.receivers``), tournaments
withdraw its entries (``tournaments.receivers``). A receiver that raises rolls the deletion back,
so receivers catch the refusals they expect (a match already over, a tournament already
finished) and let only real faults through.
"""

from django.dispatch import Signal

account_deleted = Signal()
