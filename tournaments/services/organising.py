"""Setting a tournament up: creating it (within the organiser's limits), changing its settings
before the start, opening and closing registration.

``SETTINGS_FIELDS`` are what an organiser sets (the form's cleaned data); the services check
them again themselves, because a task or the shell may call them without the form.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings as django_settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User
from games.engine import Rules
from play import services as games
from tournaments.models import Entry, Tournament
from tournaments.services.errors import TournamentError
from tournaments.services.locking import tournament_changed, tournament_lock

#: Fields an organiser sets (the form's cleaned data); only these may be passed to create/update.
SETTINGS_FIELDS = (
    "name",
    "description",
    "format",
    "third_place",
    "legs",
    "rounds",
    "final_table",
    "rules",
    "best_of",
    "turn_seconds",
    "min_players",
    "max_players",
    "starts_at",
    "registration_deadline",
    "checkin_minutes",
    "rated",
    "bots_allowed",
    "duration_minutes",
    "berserk",
)


def tournament_create(*, organiser: User, settings: dict[str, Any]) -> Tournament:
    """A new tournament in draft (only its organiser sees it until registration opens).

    Refused past the organiser's limits (``_check_creation_allowed``)."""
    _check_settings(settings)
    with transaction.atomic():
        _check_creation_allowed(organiser)
        return Tournament.objects.create(organiser=organiser, **_only_settings(settings))


#: A tournament in one of these is not over: it counts against ``TOURNAMENTS_OPEN_PER_USER``.
NOT_OVER = (
    Tournament.Status.DRAFT,
    Tournament.Status.REGISTRATION,
    Tournament.Status.CHECK_IN,
    Tournament.Status.RUNNING,
    Tournament.Status.PAUSED,
)


def _check_creation_allowed(organiser: User) -> None:
    """Refuse a new tournament to ``organiser`` who has ``TOURNAMENTS_OPEN_PER_USER`` not yet over
    (drafts included), or set up ``TOURNAMENTS_CREATE_RATE`` = (count, seconds) within the window.

    Why: a tournament is a public page once opened and a standing job for beat; one user set up
    25 in a row. Counted under a lock on the user's row, so two requests at once (on any process)
    cannot both slip through; the first query of the creation, before the tournament's own work."""
    User.objects.select_for_update().filter(pk=organiser.pk).first()
    mine = Tournament.objects.filter(organiser=organiser)
    most = django_settings.TOURNAMENTS_OPEN_PER_USER
    open_now = mine.filter(status__in=NOT_OVER).count()
    if open_now >= most:
        raise TournamentError(
            ngettext(
                "You already have %(count)d tournament that is not over: finish or cancel it "
                "before setting up another.",
                "You already have %(count)d tournaments that are not over: finish or cancel one "
                "before setting up another.",
                open_now,
            )
            % {"count": open_now}
        )
    count, seconds = django_settings.TOURNAMENTS_CREATE_RATE
    recent = mine.filter(created__gte=timezone.now() - timedelta(seconds=seconds)).count()
    if recent >= count:
        hours = max(1, round(seconds / 3600))
        raise TournamentError(
            ngettext(
                "You have set up %(count)d tournaments in the last hour: wait a while before "
                "setting up another.",
                "You have set up %(count)d tournaments in the last %(hours)d hours: wait a while "
                "before setting up another.",
                hours,
            )
            % {"count": recent, "hours": hours}
        )


def tournament_update(*, tournament_id: int, user: User, settings: dict[str, Any]) -> Tournament:
    """Change the settings before the start (draft, registration or check-in)."""
    _check_settings(settings)
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        if not (tournament.status == Tournament.Status.DRAFT or tournament.is_open):
            raise TournamentError(_("A tournament can be edited only before it starts."))
        for name, value in _only_settings(settings).items():
            setattr(tournament, name, value)
        if tournament.entries.filter(state=Entry.State.ACTIVE).count() > tournament.max_players:
            raise TournamentError(_("More players have registered than the new maximum."))
        tournament_changed(tournament)
    return tournament


def registration_open(*, tournament_id: int, user: User) -> None:
    """Open registration (from the draft, or reopen it during check-in)."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.CHECK_IN):
            raise TournamentError(_("Registration can be opened only before the start."))
        tournament.status = Tournament.Status.REGISTRATION
        tournament_changed(tournament)


def registration_close(*, tournament_id: int, user: User | None) -> None:
    """Close registration: check-in begins (without a check-in window everyone is already in).

    ``user`` is ``None`` when the periodic task closes it at the deadline."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id, user)
        if tournament.status != Tournament.Status.REGISTRATION:
            raise TournamentError(_("Registration is not open."))
        tournament.status = Tournament.Status.CHECK_IN
        tournament_changed(tournament)


def _only_settings(settings: dict[str, Any]) -> dict[str, Any]:
    return {name: settings[name] for name in SETTINGS_FIELDS if name in settings}


def _check_settings(settings: dict[str, Any]) -> None:
    """The service's own guard for what the form already checks (a task or the shell may call)."""
    try:
        rules = Rules.from_dict(settings["rules"])
    except (KeyError, TypeError, ValueError):
        raise TournamentError(_("These table rules are not possible.")) from None
    if rules.teams:
        raise TournamentError(_("Tournaments are played without teams."))
    if settings.get("rated"):
        try:
            games.validate_rated_rules(rules)
        except games.RatedRulesError as error:
            raise TournamentError(error.message) from None
    if settings.get("min_players", 2) < 2 or settings.get("max_players", 2) < settings.get("min_players", 2):
        raise TournamentError(_("The player limits are not possible."))
    if settings.get("format") == Tournament.Format.ARENA and not (
        MIN_ARENA_MINUTES <= settings.get("duration_minutes", 0) <= MAX_ARENA_MINUTES
    ):
        limits = {"low": MIN_ARENA_MINUTES, "high": MAX_ARENA_MINUTES}
        raise TournamentError(_("An arena runs from %(low)d to %(high)d minutes.") % limits)


#: How long an arena may run, in minutes.
MIN_ARENA_MINUTES = 5


MAX_ARENA_MINUTES = 360
