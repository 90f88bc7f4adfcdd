"""Tables made before ``Rules.throw_in_waits`` deal their next matches under the new rule: their
stored options get ``"throw_in_waits": "public"``. Matches keep theirs (without the key they read
as ``"holders"``, the rule they were played under), so every recorded game replays exactly."""

from django.db import migrations


def forwards(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.all().only("pk", "rules").iterator():
        if "throw_in_waits" not in table.rules:
            table.rules = {**table.rules, "throw_in_waits": "public"}
            table.save(update_fields=["rules"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_table_throw_in_seconds"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
