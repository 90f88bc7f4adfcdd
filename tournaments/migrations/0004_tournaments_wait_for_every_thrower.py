"""Tournaments made before ``Rules.throw_in_waits`` deal their coming games under the new rule
(their stored options get ``"throw_in_waits": "public"``, as the tables' do in
``games.0014_tables_wait_for_every_thrower``)."""

from django.db import migrations


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.all().only("pk", "rules").iterator():
        if "throw_in_waits" not in tournament.rules:
            tournament.rules = {**tournament.rules, "throw_in_waits": "public"}
            tournament.save(update_fields=["rules"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_tournament_tables_managed"),
        ("games", "0014_tables_wait_for_every_thrower"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
