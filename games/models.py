"""Live play in the database: tables, their seats, matches, the players of a match and its move log.

The engine (``games.engine``) owns the rules; these rows own what the site must keep across
requests and restarts:

* ``Table`` is where people sit down: the rules (``Rules.to_dict()``), rated or casual, the turn
  timer, public or private with an invite token.
* ``Seat`` is a user (human or bot) in a position; the position is the engine's seat index, so
  with teams partners sit at 0 & 2 and 1 & 3.
* ``Match`` is one deal played at a table. ``version`` counts every change (the optimistic lock a
  client sends back with its action); ``snapshot`` is the engine state's ``to_json()`` after the
  last change and can always be rebuilt from the move log. ``seed`` and ``snapshot`` never leave
  the server while the match runs.
* ``MatchPlayer`` freezes who played which seat (seats may change between matches) and keeps the
  per-match standing: autopilot, consecutive timeouts, place, fool, resigned, and its own turn
  timer when the player halved it.
* ``Move`` is the append-only log of engine actions, unique per ``(match, seq)`` as the last line
  of defence against two writers.

Every write goes through ``play.services``; reads for pages go through ``play.selectors``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_invite_token() -> str:
    """An unguessable token for a private table's invite link."""
    return secrets.token_urlsafe(16)


class Table(models.Model):
    """A table in the lobby: its rules and settings, and the seats around it."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        #: Full, waiting a few seconds for the values of its players' open browsers
        #: (``docs/rules.md`` §"Fair deals"): dealt by ``deal_due_at`` at the latest.
        DEALING = "dealing", _("Dealing")
        PLAYING = "playing", _("Playing")
        CLOSED = "closed", _("Closed")

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="created_tables",
        verbose_name=_("creator"),
    )
    rules = models.JSONField(_("rules"), help_text=_("The engine's Rules.to_dict()."))
    rated = models.BooleanField(_("rated"), default=False)
    turn_seconds = models.PositiveSmallIntegerField(_("turn timer (seconds)"), default=30)
    #: The public throw-in window (``docs/rules.md`` §3 "Waiting for the throwers"): once the bout
    #: waits only for throwers, it ends this long after the last move unless someone throws in.
    throw_in_seconds = models.PositiveSmallIntegerField(_("throw-in window (seconds)"), default=5)
    private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(
        _("invite token"), max_length=32, unique=True, default=new_invite_token, editable=False
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    managed = models.BooleanField(
        _("dealt by an event"),
        default=False,
        help_text=_(
            'A tournament\'s table: the tournament deals its games, so nobody may "play again" at it.'
        ),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    organised = models.BooleanField(
        _("arranged by a tournament"),
        default=False,
        help_text=_("Seated by a tournament: not one of its creator's own tables for the limits."),
    )
    host_seen_at = models.DateTimeField(
        _("host last seen"),
        null=True,
        blank=True,
        help_text=_("Refreshed by the creator's open table or lobby page; the lobby shows a host away."),
    )
    server_seed = models.CharField(
        _("server seed of the next deal"),
        max_length=64,
        blank=True,
        default="",
        help_text=_("Secret until the match it deals is over; the table shows only its SHA-256."),
    )
    deal_due_at = models.DateTimeField(
        _("deal due at"),
        null=True,
        blank=True,
        help_text=_("While dealing: the cards are dealt by then with the values that came."),
    )

    class Meta:
        ordering = ("-created",)
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"{_('Table')} #{self.pk}"

    @property
    def players(self) -> int:
        """How many seats the table has (the rules' player count)."""
        return int(self.rules["players"])

    @property
    def variant(self) -> str:
        """The rules' variant name (``podkidnoy``, ``perevodnoy`` or ``circle``)."""
        return str(self.rules["variant"])

    @property
    def open_to_watch(self) -> bool:
        """Whether anyone may watch the table and its games: a public table, or a tournament's
        (``managed``). A tournament's table is private so that only the players the tournament
        seats take its seats, not to hide its games: tournaments are public, and their pages link
        every game in play."""
        return not self.private or self.managed


class Seat(models.Model):
    """A user sitting at a table; ``position`` is the engine's seat index."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    position = models.PositiveSmallIntegerField(_("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="seats",
        verbose_name=_("user"),
    )
    joined = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ("table", "position")
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=("table", "position"), name="seat_unique_position"),
            models.UniqueConstraint(fields=("table", "user"), name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.position}"


class Match(models.Model):
    """One game at a table, from the deal to the result."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="matches", verbose_name=_("table")
    )
    number = models.PositiveIntegerField(_("number at the table"))
    rules = models.JSONField(_("rules"), help_text=_("The engine's Rules.to_dict() at the deal."))
    seed = models.CharField(_("seed"), max_length=64)
    server_seed = models.CharField(
        _("server seed"),
        max_length=64,
        blank=True,
        default="",
        help_text=_("The committed part of the seed; empty for matches dealt before players contributed."),
    )
    contributions = models.JSONField(
        _("player values"),
        default=list,
        blank=True,
        help_text=_('One entry per seat: {"seat", "value"} with value null for a bot or a missing one.'),
    )
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE, db_index=True
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    last_seq = models.PositiveIntegerField(
        _("last move number"),
        default=0,
        db_default=0,
        help_text=_("The sequence number of the last move logged (0 before the first)."),
    )
    snapshot = models.JSONField(_("snapshot"), help_text=_("The engine state's to_json()."))
    # Not indexed: every move writes it, and an update that changes no indexed column can stay on
    # the row's page (PostgreSQL's heap-only update) instead of adding an entry to each of the
    # table's indexes. Beat's clock finds the overdue among the active matches, through the
    # status's index (``clock.matches_timeout_overdue``).
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True, db_index=True)
    result = models.JSONField(_("result"), null=True, blank=True)

    class Meta:
        ordering = ("-started_at",)
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=("table", "number"), name="match_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{_('Match')} #{self.pk}"

    @property
    def is_active(self) -> bool:
        """Whether the match is still being played."""
        return self.status == self.Status.ACTIVE

    @property
    def turn_seconds(self) -> int:
        """The turn timer of the match's table."""
        return int(self.table.turn_seconds)


class MatchPlayer(models.Model):
    """Who played a seat of a match, and how that seat stands."""

    #: Consecutive counted timeouts (``timeouts``) that put the seat on autopilot: the turn timer
    #: applies it (``services.clock``) and the page shows it (``presenters``), so it lives here.
    AUTOPILOT_AFTER_TIMEOUTS = 3

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="players", verbose_name=_("match")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="match_players",
        verbose_name=_("user"),
    )
    autopilot = models.BooleanField(
        _("autopilot"), default=False, help_text=_("A bot plays the seat for its owner.")
    )
    timeouts = models.PositiveSmallIntegerField(_("consecutive timeouts"), default=0)
    resigned = models.BooleanField(_("resigned"), default=False)
    forfeit_order = models.PositiveSmallIntegerField(
        _("forfeit order"),
        null=True,
        blank=True,
        help_text=_("1 for the first seat put on autopilot by resign or timeouts, then 2, …"),
    )
    turn_seconds = models.PositiveSmallIntegerField(
        _("own turn timer (seconds)"),
        null=True,
        blank=True,
        help_text=_("Set when the player halved their own timer (an arena's berserk); empty: the table's."),
    )
    wants_again = models.BooleanField(_("wants to play again"), default=False)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    fool = models.BooleanField(_("fool"), default=False)
    rating = models.FloatField(
        _("rating at the deal"),
        null=True,
        blank=True,
        help_text=_("The player's rating in the table's pool when the match was dealt (shown at the table)."),
    )
    rating_provisional = models.BooleanField(_("provisional rating"), default=False)

    class Meta:
        ordering = ("match", "seat")
        verbose_name = _("match player")
        verbose_name_plural = _("match players")
        constraints = [
            models.UniqueConstraint(fields=("match", "seat"), name="matchplayer_unique_seat"),
            models.UniqueConstraint(fields=("match", "user"), name="matchplayer_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.match} · {self.seat}"

    @property
    def forfeited(self) -> bool:
        """Whether the seat resigned or timed out into autopilot (it then counts as the fool)."""
        return self.forfeit_order is not None


class RatedQuit(models.Model):
    """The ledger of deal fishing (Lichess's playban ledger): a rated game its player left too
    early (``games.early``), by aborting it (which counts as a resignation), resigning, or timing
    out into the autopilot. Too many within a window bar rated play for a while
    (``play.services.playban``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rated_quits",
        verbose_name=_("user"),
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rated_quits", verbose_name=_("match")
    )
    aborted = models.BooleanField(
        _("aborted"),
        help_text=_("An abort, else a resignation or the autopilot before every player made a few moves."),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ("-at",)
        verbose_name = _("rated game left too early")
        verbose_name_plural = _("rated games left too early")
        constraints = [
            models.UniqueConstraint(fields=("match", "user"), name="ratedquit_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.match} · {self.user_id}"


class SeedContribution(models.Model):
    """A seated player's random value for the next deal at a table (``games.seeding``).

    Kept secret until the match it helps deal is over; unique per player and commitment, so a
    value cannot be replaced once sent."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="contributions", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="seed_contributions",
        verbose_name=_("user"),
    )
    commitment = models.CharField(_("commitment"), max_length=64)
    value = models.CharField(_("value"), max_length=32)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("seed contribution")
        verbose_name_plural = _("seed contributions")
        constraints = [
            models.UniqueConstraint(fields=("commitment", "user"), name="seedcontribution_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.user_id}"


class Move(models.Model):
    """One engine action in a match's log, with the public events it produced."""

    class By(models.TextChoices):
        PLAYER = "player", _("player")
        BOT = "bot", _("bot")
        AUTOPILOT = "autopilot", _("autopilot")
        TIMEOUT = "timeout", _("timeout")
        #: A move with no choice in it, played at once (circle stage 1: a drawn card that can beat
        #: exactly one circle card); it never waits and never counts as a timeout.
        FORCED = "forced", _("forced")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves", verbose_name=_("match"))
    seq = models.PositiveIntegerField(_("sequence number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    action = models.CharField(_("action"), max_length=200, help_text=_("Canonical notation."))
    events = models.JSONField(_("events"), default=list)
    by = models.CharField(_("played by"), max_length=16, choices=By.choices, default=By.PLAYER)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ("match", "seq")
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        constraints = [
            models.UniqueConstraint(fields=("match", "seq"), name="move_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.match} · {self.seq}: {self.action}"
