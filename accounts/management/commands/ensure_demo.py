"""``manage.py ensure_demo``: a ``demo`` staff user for trying the site and its admin locally.

The demo user is staff (the admin lets it in) in the "Club staff" group, which may view every
row of the club's apps and change none: the least that makes the admin worth opening. It is
not a superuser, so a demo password that leaks gives no way to change anything.

The password comes from ``DEMO_PASSWORD`` (default ``durak-demo`` outside production; in
production the variable must be set or the command refuses). Running it again resets the password.
"""

from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.services import club_staff_group_ensure

DEMO_EMAIL = "demo@example.com"


class Command(BaseCommand):
    help = "Create or refresh the demo staff account (login demo@example.com)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEMO_PASSWORD:
            raise CommandError("Set DEMO_PASSWORD to create the demo account in production.")
        user, created = User.objects.get_or_create(
            username="demo",
            defaults={"display_name": "Demo", "email": DEMO_EMAIL, "is_staff": True},
        )
        user.set_password(settings.DEMO_PASSWORD)
        user.is_staff = True
        user.save()
        user.groups.add(club_staff_group_ensure())
        EmailAddress.objects.update_or_create(
            user=user, email=DEMO_EMAIL, defaults={"verified": True, "primary": True}
        )
        verb = "created" if created else "refreshed"
        self.stdout.write(f"{verb} demo staff user: {DEMO_EMAIL}")
