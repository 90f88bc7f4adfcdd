"""The arena format: its duration, berserk and end on the tournament, a player's pause and the
time they became free on the entry, and who went berserk in a game on the pairing's player.
Every new field has a default: existing tournaments are unchanged."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='entry',
            name='paused',
            field=models.BooleanField(default=False, help_text='Arena: not paired until they come back.', verbose_name='paused'),
        ),
        migrations.AddField(
            model_name='entry',
            name='waiting_since',
            field=models.DateTimeField(blank=True, help_text='Arena: when the player last became free to play.', null=True, verbose_name='free since'),
        ),
        migrations.AddField(
            model_name='pairingplayer',
            name='berserk',
            field=models.BooleanField(default=False, help_text='Arena: the player halved their own turn timer in this game.', verbose_name='berserk'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='berserk',
            field=models.BooleanField(default=False, help_text='Arena: a player may halve their own turn timer for a bonus point.', verbose_name='berserk allowed'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='duration_minutes',
            field=models.PositiveSmallIntegerField(default=0, help_text='Arena: how long pairing goes on.', verbose_name='duration (minutes)'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='ends_at',
            field=models.DateTimeField(blank=True, help_text='Arena: set at the start; games in play then finish.', null=True, verbose_name='pairing ends'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='format',
            field=models.CharField(choices=[('single', 'Single elimination'), ('double', 'Double elimination'), ('round_robin', 'Round robin'), ('swiss', 'Swiss'), ('multi_table', 'Multi-table rounds'), ('arena', 'Arena')], max_length=16, verbose_name='format'),
        ),
    ]
