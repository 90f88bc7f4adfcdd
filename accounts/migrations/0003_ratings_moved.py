"""Ratings moved to the ``ratings`` app (see ``ratings.0001``): drop them from this app's state.

State only: the tables now belong to ``ratings.Rating`` and ``ratings.RatingChange``.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_ratings'),
        ('ratings', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.DeleteModel(name='RatingChange'),
                migrations.DeleteModel(name='Rating'),
            ],
        ),
    ]
