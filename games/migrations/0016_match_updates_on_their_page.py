"""A move's update of its match stays on the row's page (PostgreSQL's heap-only tuple update):
the deadline, which every move writes, is no longer indexed, and the table's pages are filled to
70 % so that the row's next version finds room beside it. Elsewhere (SQLite) only the index goes."""

from typing import Any

from django.db import migrations, models

#: How full PostgreSQL fills a page of matches on insert: a row is one to two kilobytes (the
#: snapshot), and its next version needs room on the same page to be a heap-only update.
FILLFACTOR = 70


def _storage(fillfactor: str) -> Any:
    def alter(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        table = schema_editor.quote_name(apps.get_model("games", "Match")._meta.db_table)
        schema_editor.execute(f"ALTER TABLE {table} {fillfactor}")

    return alter


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0015_table_dealing"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="deadline_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="deadline"),
        ),
        migrations.RunPython(
            _storage(f"SET (fillfactor = {FILLFACTOR})"), _storage("RESET (fillfactor)"), elidable=False
        ),
    ]
