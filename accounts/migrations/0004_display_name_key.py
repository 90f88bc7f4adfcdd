"""Display names get a skeleton (``accounts.names.skeleton``) under a unique index.

The data step fills the skeleton of every existing user in id order. Where an older account
already looks like an earlier one (a homoglyph twin signed up before this check), the later
one keeps its name and gets its skeleton with ``#<id>`` appended, so the index can be built
without renaming anybody; every name chosen from now on is compared with both.
"""

import accounts.models
import django.core.validators
from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.names import skeleton

    User = apps.get_model("accounts", "User")
    seen = set()
    for user in User.objects.order_by("pk").only("pk", "display_name").iterator():
        key = skeleton(user.display_name)[:255]
        if key in seen:
            key = f"{key[:240]}#{user.pk}"
        seen.add(key)
        User.objects.filter(pk=user.pk).update(display_name_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_ratings_moved'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='display_name_key',
            field=models.CharField(default='', editable=False, help_text='What the display name looks like (accounts.names.skeleton): unique, so no two names look alike.', max_length=255, verbose_name='display name skeleton'),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name='user',
            name='display_name',
            field=models.CharField(max_length=32, validators=[accounts.models.validate_visible, accounts.models.validate_normalised, django.core.validators.MinLengthValidator(2), django.core.validators.RegexValidator('^\\w[\\w .\\-]*\\w\\Z', 'Use letters, digits, spaces, dots, dashes and underscores; start and end with a letter or digit.'), accounts.models.validate_key_length], verbose_name='display name'),
        ),
        migrations.AddConstraint(
            model_name='user',
            constraint=models.UniqueConstraint(fields=('display_name_key',), name='accounts_user_display_name_key_unique', violation_error_message='This display name looks too much like one already taken.'),
        ),
    ]
