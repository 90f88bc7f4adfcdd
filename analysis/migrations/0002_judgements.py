"""An evaluation's judged moves are its ``judgements`` ("results" is how a game ended); the column
keeps its name, so this changes Django's state only."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0001_evaluation"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(model_name="evaluation", old_name="results", new_name="judgements"),
                migrations.AlterField(
                    model_name="evaluation",
                    name="judgements",
                    field=models.JSONField(db_column="results", default=list, verbose_name="judgements"),
                ),
            ],
            database_operations=[],
        ),
    ]
