"""Writes on accounts (HackSoft style: views and commands parse input and call these)."""

from __future__ import annotations

from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, Permission
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from .models import User, capitals_key
from .names import is_numbered, normalise, skeleton
from .signals import account_deleted

#: Display names nobody may take, compared by skeleton (so in any case, spacing or look-alike).
RESERVED_DISPLAY_NAMES = frozenset({"deleted player", "удалённый игрок", "admin", "system"})


def bot_display_name(level: User.BotLevel, number: int = 1) -> str:
    """ "Bot Easy" for the level's first bot, "Bot Easy 2" for the second, and so on."""
    name = f"Bot {level.value.capitalize()}"
    return name if number == 1 else f"{name} {number}"


def bot_username(level: User.BotLevel, number: int = 1) -> str:
    """The bot's login name, by which the site finds it: ``bot-easy``, ``bot-easy-2``..."""
    return f"bot-{level.value}" if number == 1 else f"bot-{level.value}-{number}"


def _case_variants(name: str) -> set[str]:
    """Skeletons of ``name`` as typed, in lower and in upper case: skeletons keep some case ("O"
    looks like "0", "o" does not), so reserved names are compared in every case."""
    return {skeleton(name), skeleton(name.casefold()), skeleton(name.upper())}


def display_name_is_reserved(name: str) -> bool:
    """Whether ``name`` looks like a name the site keeps for itself: a bot's ("Bot Easy",
    "bot easy 7", "Bot Easy ٢" ...), the placeholder of a deleted account ("deleted-17"), or one
    of ``RESERVED_DISPLAY_NAMES``; in any case, spacing, script of its digits or look-alike
    spelling (a skeleton has no spaces or punctuation, and plain digits: ``accounts.names``)."""
    variants = _case_variants(name)
    reserved = set().union(*(_case_variants(word) for word in RESERVED_DISPLAY_NAMES))
    if variants & reserved:
        return True
    numbered = [f"Bot {level.value.capitalize()}" for level in User.BotLevel] + ["deleted"]
    bases = set().union(*(_case_variants(base) for base in numbered))
    return any(is_numbered(variant, base) for variant in variants for base in bases)


def _looks_like(name: str) -> Q:
    """Users whose name looks like ``name``, as spelled or in capitals (``accounts.names``)."""
    return Q(display_name_key=skeleton(name)) | Q(display_name_capitals_key=capitals_key(name))


def display_name_is_taken(name: str, *, exclude_pk: int | None = None) -> bool:
    """Whether someone already has ``name`` in any case, or a name that looks like it."""
    name = normalise(name)
    users = User.objects.filter(Q(display_name__iexact=name) | _looks_like(name))
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


def display_name_is_lookalike(name: str, *, exclude_pk: int | None = None) -> bool:
    """Whether ``name`` is free as spelled but looks like a name someone has (for the message)."""
    name = normalise(name)
    users = User.objects.filter(_looks_like(name)).exclude(display_name__iexact=name)
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()


#: How often a player may change their display name: opponents and tournament tables must be
#: able to recognise a player from one game to the next.
DISPLAY_NAME_CHANGE_DAYS = 30


class NameChangeTooSoon(Exception):
    """The player changed their display name less than ``DISPLAY_NAME_CHANGE_DAYS`` ago."""

    def __init__(self, allowed_from: datetime) -> None:
        super().__init__(allowed_from)
        self.allowed_from = allowed_from


def display_name_next_change(user: User) -> datetime | None:
    """When ``user`` may change their display name again (``None``: now)."""
    if user.display_name_changed_at is None:
        return None
    allowed = user.display_name_changed_at + timedelta(days=DISPLAY_NAME_CHANGE_DAYS)
    return allowed if allowed > timezone.now() else None


def display_name_change(*, user: User, name: str) -> None:
    """Give ``user`` the display name ``name`` (already checked by the form: the name rules of
    ``accounts.names``); refused with ``NameChangeTooSoon`` within 30 days of the last change."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        allowed_from = display_name_next_change(locked)
        if allowed_from is not None:
            raise NameChangeTooSoon(allowed_from)
        if name == locked.display_name:
            return
        locked.display_name = name
        locked.display_name_changed_at = timezone.now()
        locked.save(update_fields=["display_name", "display_name_changed_at"])
    user.display_name, user.display_name_changed_at = locked.display_name, locked.display_name_changed_at


@transaction.atomic
def user_anonymise(*, user: User) -> None:
    """Delete an account while keeping its row for other players' history.

    Personal data goes (email addresses, names, password, permissions); the row stays with a
    placeholder name and ``deleted_at`` set, so pages show "deleted player". ``is_active=False``
    also ends every open session at its next request. Then ``account_deleted`` lets the apps
    above free what the account still holds (seats, tables, matches in play, tournament entries)
    in the same transaction; finished matches keep it, anonymised.
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
    account_deleted.send(sender=User, user=user)


def _bot(level: User.BotLevel, number: int) -> User | None:
    """Bot ``number`` of ``level``, created when missing; ``None`` when it cannot be had: its
    username or its display name belongs to someone else (an account made before those names
    were reserved). Bots are found by username and ``is_bot``, never by display name."""
    username = bot_username(level, number)
    found = User.objects.filter(username=username).first()
    if found is not None:
        return found if found.is_bot and found.bot_level == level.value else None
    name = bot_display_name(level, number)
    if display_name_is_taken(name):
        return None
    try:
        with transaction.atomic():
            return User.objects.create(
                username=username,
                display_name=name,
                is_bot=True,
                bot_level=level.value,
                password=make_password(None),  # unusable: bots never log in
            )
    except IntegrityError:
        # Created meanwhile by a concurrent table or tournament, or the name was just taken.
        return User.objects.filter(username=username, is_bot=True, bot_level=level.value).first()


#: How far ``bot_accounts`` looks for free bot numbers before giving up (never reached in play).
BOT_NUMBER_LIMIT = 1000


def bot_ensure(*, level: User.BotLevel) -> tuple[User, bool]:
    """The first bot of ``level`` ("Bot Easy", or the first numbered one that can be had),
    created when missing; returns ``(bot, created)``."""
    before = set(User.objects.filter(is_bot=True, bot_level=level.value).values_list("pk", flat=True))
    bot = bot_accounts(level=level, count=1, exclude=set())[0]
    return bot, bot.pk not in before


def bot_accounts(*, level: User.BotLevel, count: int, exclude: set[int]) -> list[User]:
    """``count`` bot accounts of ``level`` not in ``exclude``: the level's bot first, then its
    numbered twins ("Bot Easy 2", ...), created when missing. One seat per user per table, so six
    easy bots at one table need six accounts. A number whose username or display name someone
    else holds is skipped."""
    found: list[User] = []
    for number in range(1, BOT_NUMBER_LIMIT + 1):
        if len(found) == count:
            return found
        bot = _bot(level, number)
        if bot is not None and bot.pk not in exclude:
            found.append(bot)
    raise RuntimeError(f"no free {level.value} bot among the first {BOT_NUMBER_LIMIT}")


#: The group of support staff: they may look at every row of the club in the admin, and change
#: none (``ensure_demo`` puts the demo user in it).
CLUB_STAFF_GROUP = "Club staff"
#: The apps whose rows the group may view (users, live play, ratings, tournaments).
CLUB_STAFF_APPS = ("accounts", "games", "ratings", "tournaments")


def club_staff_group_ensure() -> Group:
    """The "Club staff" group with exactly the view permissions of ``CLUB_STAFF_APPS``' models
    (made when missing, its permissions set again). Needs the permissions ``migrate`` creates."""
    group, _created = Group.objects.get_or_create(name=CLUB_STAFF_GROUP)
    group.permissions.set(
        Permission.objects.filter(content_type__app_label__in=CLUB_STAFF_APPS, codename__startswith="view_")
    )
    return group
