"""``Match.last_seq``: the number of the last logged move, kept on the row so a move does not ask
the log for its maximum (a query per move). Existing matches are filled from their logs.

Deploy it with the old processes stopped: code from before it numbers moves from the log and
leaves ``last_seq`` behind, and a match it moves on meanwhile would then refuse every move (the
next number is taken). The database default lets old code still deal matches."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce


def fill_from_logs(apps, schema_editor):
    match_model = apps.get_model("games", "Match")
    move_model = apps.get_model("games", "Move")
    last = move_model.objects.filter(match=OuterRef("pk")).order_by("-seq").values("seq")[:1]
    match_model.objects.update(last_seq=Coalesce(Subquery(last), 0))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_match_timer_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="last_seq",
            field=models.PositiveIntegerField(
                default=0,
                db_default=0,
                help_text="The sequence number of the last move logged (0 before the first).",
                verbose_name="last move number",
            ),
        ),
        migrations.RunPython(fill_from_logs, migrations.RunPython.noop),
    ]
