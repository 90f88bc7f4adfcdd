"""Display names get their skeleton in capitals too (``accounts.names.capitals_skeleton``).

Not unique: two existing accounts may share it (a name and a look-alike of it in another case,
both from before this check), and neither is renamed. The data step fills it for every user;
every name chosen from now on is compared with it.
"""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.names import capitals_skeleton

    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "display_name").iterator():
        key = capitals_skeleton(user.display_name)[:255]
        User.objects.filter(pk=user.pk).update(display_name_capitals_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_user_display_name_changed_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_name_capitals_key",
            field=models.CharField(
                db_index=True,
                default="",
                editable=False,
                help_text="What the display name looks like in capitals (accounts.names.capitals_skeleton): "
                "a new name may not share it either.",
                max_length=255,
                verbose_name="display name skeleton in capitals",
            ),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
