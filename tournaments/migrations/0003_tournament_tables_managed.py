"""Mark the tables of existing tournaments as dealt by their tournament (``Table.managed``), so
nobody may "play again" at a table made before the field existed."""

from django.db import migrations


def mark(apps, schema_editor):  # type: ignore[no-untyped-def]
    Table = apps.get_model("games", "Table")
    Table.objects.filter(tournament_pairing__isnull=False).update(managed=True)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_arena"),
        ("games", "0012_table_managed_by_an_event"),
    ]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
