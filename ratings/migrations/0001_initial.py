"""Ratings move from ``accounts`` to their own app: Django's state only.

The tables stay where they are (``accounts_rating``, ``accounts_ratingchange``, named in the
models' ``Meta.db_table``), so no row moves; ``accounts.0003`` drops the old state. The content
types are renamed so that permissions and admin log entries follow the models.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in ("rating", "ratingchange"):
        if not ContentType.objects.filter(app_label="ratings", model=model).exists():
            ContentType.objects.filter(app_label="accounts", model=model).update(app_label="ratings")


def restore_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in ("rating", "ratingchange"):
        if not ContentType.objects.filter(app_label="accounts", model=model).exists():
            ContentType.objects.filter(app_label="ratings", model=model).update(app_label="accounts")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('accounts', '0002_ratings'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0004_match_last_seq'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Rating',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('pool', models.CharField(max_length=32, verbose_name='pool')),
                        ('rating', models.FloatField(verbose_name='rating')),
                        ('games', models.PositiveIntegerField(default=0, verbose_name='games')),
                        ('wins', models.PositiveIntegerField(default=0, verbose_name='wins')),
                        ('fools', models.PositiveIntegerField(default=0, verbose_name='times the fool')),
                        ('draws', models.PositiveIntegerField(default=0, verbose_name='draws')),
                        ('best', models.FloatField(verbose_name='best rating')),
                        ('updated', models.DateTimeField(auto_now=True, verbose_name='updated')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'db_table': 'accounts_rating',
                        'verbose_name': 'rating',
                        'verbose_name_plural': 'ratings',
                        'indexes': [models.Index(fields=['pool', '-rating'], name='rating_pool_board')],
                        'constraints': [models.UniqueConstraint(fields=('user', 'pool'), name='rating_unique_user_pool')],
                    },
                ),
                migrations.CreateModel(
                    name='RatingChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('pool', models.CharField(max_length=32, verbose_name='pool')),
                        ('seq', models.PositiveBigIntegerField(verbose_name='applied order')),
                        ('before', models.FloatField(verbose_name='before')),
                        ('after', models.FloatField(verbose_name='after')),
                        ('delta', models.FloatField(verbose_name='change')),
                        ('k', models.PositiveSmallIntegerField(verbose_name='K factor')),
                        ('games_before', models.PositiveIntegerField(verbose_name='games before')),
                        ('outcome', models.CharField(max_length=8, verbose_name='outcome')),
                        ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='games.match', verbose_name='match')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'db_table': 'accounts_ratingchange',
                        'verbose_name': 'rating change',
                        'verbose_name_plural': 'rating changes',
                        'ordering': ('seq',),
                        'indexes': [models.Index(fields=['user', 'pool', 'seq'], name='ratingchange_user_pool_seq'), models.Index(fields=['seq'], name='ratingchange_seq')],
                        'constraints': [models.UniqueConstraint(fields=('match', 'user'), name='ratingchange_unique_match_user')],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
