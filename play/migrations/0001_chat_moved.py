"""The table chat moves from ``games`` to the ``play`` app: Django's state only.

The tables stay where they are (``games_chatline``, ``games_chatreport``,
``games_moderationaction``, named in the models' ``Meta.db_table``), so no row moves;
``games.0019`` drops the old state. The content types are renamed so that permissions and admin
log entries follow the models.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MODELS = ("chatline", "chatreport", "moderationaction")


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not ContentType.objects.filter(app_label="play", model=model).exists():
            ContentType.objects.filter(app_label="games", model=model).update(app_label="play")


def restore_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not ContentType.objects.filter(app_label="games", model=model).exists():
            ContentType.objects.filter(app_label="play", model=model).update(app_label="games")



class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0018_ratedquit_left_too_early'),
        ('people', '0002_sanctions'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
            migrations.CreateModel(
                name='ChatLine',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('room', models.CharField(choices=[('players', 'players'), ('spectators', 'spectators')], max_length=16, verbose_name='room')),
                    ('seat', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='seat')),
                    ('phrase', models.CharField(blank=True, max_length=16, verbose_name='quick phrase')),
                    ('text', models.CharField(blank=True, max_length=200, verbose_name='text')),
                    ('created', models.DateTimeField(auto_now_add=True, verbose_name='said at')),
                    ('author', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_lines', to=settings.AUTH_USER_MODEL, verbose_name='author')),
                    ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_lines', to='games.match', verbose_name='match')),
                ],
                options={
                    'verbose_name': 'chat line',
                    'verbose_name_plural': 'chat lines',
                    'db_table': 'games_chatline',
                    'ordering': ('match', 'pk'),
                },
            ),
            migrations.CreateModel(
                name='ChatReport',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('created', models.DateTimeField(auto_now_add=True, verbose_name='reported at')),
                    ('settled_at', models.DateTimeField(blank=True, null=True, verbose_name='settled at')),
                    ('line', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports', to='play.chatline', verbose_name='line')),
                    ('reporter', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='chat_reports', to=settings.AUTH_USER_MODEL, verbose_name='reporter')),
                ],
                options={
                    'verbose_name': 'chat report',
                    'verbose_name_plural': 'chat reports',
                    'db_table': 'games_chatreport',
                    'ordering': ('settled_at', '-created'),
                },
            ),
            migrations.CreateModel(
                name='ModerationAction',
                fields=[
                    ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                    ('kind', models.CharField(choices=[('mute', 'mute in chat'), ('unmute', 'lift the mute'), ('bar', 'bar from rated play'), ('unbar', 'lift the bar from rated play'), ('dismiss', 'dismiss the report')], max_length=16, verbose_name='action')),
                    ('reason', models.TextField(verbose_name='reason')),
                    ('until', models.DateTimeField(blank=True, null=True, verbose_name='until')),
                    ('created', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                    ('report', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='actions', to='play.chatreport', verbose_name='report')),
                    ('sanction', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='people.sanction', verbose_name='sanction')),
                    ('staff', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='staff member')),
                    ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='moderation_actions', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ],
                options={
                    'verbose_name': 'moderation action',
                    'verbose_name_plural': 'moderation actions',
                    'db_table': 'games_moderationaction',
                    'ordering': ('-created',),
                },
            ),
            migrations.AddIndex(
                model_name='chatline',
                index=models.Index(fields=['match', 'room', 'id'], name='games_chat_match_room'),
            ),
            migrations.AddConstraint(
                model_name='chatline',
                constraint=models.CheckConstraint(condition=models.Q(models.Q(('phrase', ''), models.Q(('text', ''), _negated=True)), models.Q(models.Q(('phrase', ''), _negated=True), ('text', '')), _connector='OR'), name='games_chatline_phrase_xor_text'),
            ),
            migrations.AddConstraint(
                model_name='chatreport',
                constraint=models.UniqueConstraint(fields=('line', 'reporter'), name='games_chatreport_once'),
            ),
            migrations.AddConstraint(
                model_name='moderationaction',
                constraint=models.CheckConstraint(condition=models.Q(('reason', ''), _negated=True), name='games_moderation_reason'),
            ),
            ],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
