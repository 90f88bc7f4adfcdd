"""Writes on accounts (HackSoft style: views and commands parse input and call these)."""

from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.utils import timezone

from .models import User

#: Display names nobody may take, compared case-insensitively.
RESERVED_DISPLAY_NAMES = frozenset({"deleted player", "удалённый игрок", "admin", "system"})


def display_name_is_reserved(name: str) -> bool:
    lowered = name.strip().lower()
    return lowered in RESERVED_DISPLAY_NAMES or lowered.startswith("deleted-")


def display_name_is_taken(name: str, *, exclude_pk: int | None = None) -> bool:
    users = User.objects.filter(display_name__iexact=name.strip())
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


@transaction.atomic
def user_anonymise(*, user: User) -> None:
    """Delete an account while keeping its row for other players' history.

    Personal data goes (email addresses, names, password, permissions); the row stays with a
    placeholder name and ``deleted_at`` set, so pages show "deleted player". ``is_active=False``
    also ends every open session at its next request.
    """
    EmailAddress.objects.filter(user=user).delete()
    placeholder = f"deleted-{user.pk}"
    user.username = placeholder
    user.display_name = placeholder
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.set_unusable_password()
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.deleted_at = timezone.now()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def bot_ensure(*, level: User.BotLevel) -> tuple[User, bool]:
    """The bot account of ``level``, created when missing; returns ``(bot, created)``."""
    name = f"Bot {level.value.capitalize()}"
    return User.objects.get_or_create(
        username=f"bot-{level.value}",
        defaults={
            "display_name": name,
            "is_bot": True,
            "bot_level": level.value,
            "password": make_password(None),  # unusable: bots never log in
        },
    )


def bot_accounts(*, level: User.BotLevel, count: int, exclude: set[int]) -> list[User]:
    """``count`` bot accounts of ``level`` not in ``exclude``: the level's bot first, then its
    numbered twins ("Bot Easy 2", ...), created when missing. One seat per user per table, so six
    easy bots at one table need six accounts."""
    first, _created = bot_ensure(level=level)
    found: list[User] = [first] if first.pk not in exclude else []
    number = 2
    while len(found) < count:
        bot, _created = User.objects.get_or_create(
            username=f"{first.username}-{number}",
            defaults={
                "display_name": f"{first.display_name} {number}",
                "is_bot": True,
                "bot_level": level.value,
                "password": make_password(None),
            },
        )
        if bot.pk not in exclude:
            found.append(bot)
        number += 1
    return found


#: The group of support staff: they may look at every record of the club in the admin, and change
#: none (``ensure_demo`` puts the demo user in it).
CLUB_STAFF_GROUP = "Club staff"
#: The apps whose records the group may view (users, live play, ratings, tournaments).
CLUB_STAFF_APPS = ("accounts", "games", "ratings", "tournaments")


def club_staff_group_ensure() -> Group:
    """The "Club staff" group with exactly the view permissions of ``CLUB_STAFF_APPS``' models
    (made when missing, its permissions set again). Needs the permissions ``migrate`` creates."""
    group, _created = Group.objects.get_or_create(name=CLUB_STAFF_GROUP)
    group.permissions.set(
        Permission.objects.filter(content_type__app_label__in=CLUB_STAFF_APPS, codename__startswith="view_")
    )
    return group
