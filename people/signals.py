"""What the people app tells the apps above it (they listen; it never imports them)."""

from django.dispatch import Signal

#: Sent with ``user_id`` when a user's last personal socket closes (a seek of theirs, for one,
#: should go: nobody is there to be taken to the match).
user_offline = Signal()
