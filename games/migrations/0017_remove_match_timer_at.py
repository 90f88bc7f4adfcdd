"""A match's turn deadline has no task of its own any more: beat's clock plays every deadline that
ran out (``games.live.services.turn``), so the due time of the queued timer is not kept."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_match_updates_on_their_page"),
    ]

    operations = [
        migrations.RemoveField(model_name="match", name="timer_at"),
    ]
