"""The skeleton in capitals becomes unique, as the skeleton is: two signups at the same instant,
one name and a look-alike of it in another case, can no longer both get through the form's check.

Where two older accounts share one (both from before 0008 compared names in capitals), the later
keeps its name and gets the key with ``#<id>`` appended, as 0004 did for the skeleton, so the
index builds without renaming anybody; a new name is still compared with the earlier one's key.
"""

from django.db import migrations, models


def keep_old_twins_apart(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    seen = set()
    for user in User.objects.order_by("pk").only("pk", "display_name_capitals_key").iterator():
        key = user.display_name_capitals_key
        if key in seen:
            User.objects.filter(pk=user.pk).update(display_name_capitals_key=f"{key[:240]}#{user.pk}")
        seen.add(key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0008_display_name_capitals_key"),
    ]

    operations = [
        migrations.RunPython(keep_old_twins_apart, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="user",
            name="display_name_capitals_key",
            field=models.CharField(
                default="",
                editable=False,
                help_text="What the display name looks like in capitals (accounts.names.capitals_skeleton): "
                "unique too, so no name looks like another in any case.",
                max_length=255,
                verbose_name="display name skeleton in capitals",
            ),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                fields=("display_name_capitals_key",),
                name="accounts_user_display_name_capitals_key_unique",
                violation_error_message="This display name looks too much like one already taken.",
            ),
        ),
    ]
