"""Both skeletons of every display name are computed again: a skeleton now leaves out spaces and
punctuation and reads a digit of any script as its ASCII digit (``accounts.names``), so "P l a y e
r 01" and "Player ٠١" look like "Player 01".

The unique indexes are dropped while the keys change (a new key may be another user's old one
until that user's turn) and built again after. Where two existing accounts now share a key, the
later keeps its name and gets the key with ``#<id>`` appended, as 0004 and 0009 did, so nobody is
renamed; a new name is still compared with the earlier one's key.
"""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.names import capitals_skeleton, skeleton

    User = apps.get_model("accounts", "User")
    seen = {"display_name_key": set(), "display_name_capitals_key": set()}
    for user in User.objects.order_by("pk").only("pk", "display_name").iterator():
        keys = {
            "display_name_key": skeleton(user.display_name)[:255],
            "display_name_capitals_key": capitals_skeleton(user.display_name)[:255],
        }
        for field, key in keys.items():
            if key in seen[field]:
                keys[field] = f"{key[:240]}#{user.pk}"
            seen[field].add(key)
        User.objects.filter(pk=user.pk).update(**keys)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0009_display_name_capitals_key_unique"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="user", name="accounts_user_display_name_key_unique"),
        migrations.RemoveConstraint(model_name="user", name="accounts_user_display_name_capitals_key_unique"),
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                fields=("display_name_key",),
                name="accounts_user_display_name_key_unique",
                violation_error_message="This display name looks too much like one already taken.",
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
