"""The table chat moved to the ``play`` app (see ``play.0001``): drop its models from this app's
state. State only: the tables now belong to ``play.ChatLine``, ``play.ChatReport`` and
``play.ModerationAction`` under their old names, so no row moves.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_ratedquit_left_too_early'),
        ('play', '0001_chat_moved'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
            migrations.RemoveIndex(
                model_name='chatline',
                name='games_chat_match_room',
            ),
            migrations.RemoveConstraint(
                model_name='chatline',
                name='games_chatline_phrase_xor_text',
            ),
            migrations.RemoveConstraint(
                model_name='chatreport',
                name='games_chatreport_once',
            ),
            migrations.RemoveConstraint(
                model_name='moderationaction',
                name='games_moderation_reason',
            ),
            migrations.RemoveField(
                model_name='chatreport',
                name='line',
            ),
            migrations.RemoveField(
                model_name='chatreport',
                name='reporter',
            ),
            migrations.RemoveField(
                model_name='moderationaction',
                name='report',
            ),
            migrations.RemoveField(
                model_name='moderationaction',
                name='sanction',
            ),
            migrations.RemoveField(
                model_name='moderationaction',
                name='staff',
            ),
            migrations.RemoveField(
                model_name='moderationaction',
                name='user',
            ),
            migrations.DeleteModel(
                name='ChatLine',
            ),
            migrations.DeleteModel(
                name='ChatReport',
            ),
            migrations.DeleteModel(
                name='ModerationAction',
            ),
            ],
        ),
    ]
