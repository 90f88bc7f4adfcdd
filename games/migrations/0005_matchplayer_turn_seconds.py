"""``MatchPlayer.turn_seconds``: a seat's own turn timer once the player halved it
(``games.live.services.match_halve_timer``, an arena's berserk). Empty for every existing seat:
they keep the table's timer."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_match_last_seq"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchplayer",
            name="turn_seconds",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Set when the player halved their own timer (an arena's berserk); empty: the table's.",
                null=True,
                verbose_name="own turn timer (seconds)",
            ),
        ),
    ]
