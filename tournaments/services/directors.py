"""Who may run anyone's tournament: the "Tournament directors" group (``selectors.may_run``)."""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

from tournaments.models import Tournament

#: The group whose members may run anyone's tournament (``selectors.may_run``).
DIRECTORS_GROUP = "Tournament directors"


def directors_group_ensure(*, using: str = "default") -> Group:
    """The "Tournament directors" group holding ``tournaments.run_any_tournament`` (made when
    missing; run after every ``migrate``). Staff are put in it in the admin; the "Club staff"
    group, which only views, does not hold the permission."""
    content_type = ContentType.objects.db_manager(using).get_for_model(Tournament)
    permission, _created = Permission.objects.using(using).get_or_create(
        codename="run_any_tournament",
        content_type=content_type,
        defaults={"name": "Can run any organiser's tournament"},
    )
    group, _created = Group.objects.using(using).get_or_create(name=DIRECTORS_GROUP)
    group.permissions.add(permission)
    return group
