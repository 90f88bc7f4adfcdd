"""Tournament rows: the event, its entries, its rounds, each pairing and the corrections log.

The pure modules beside this one decide pairings, brackets and standings; these rows keep only
what the organiser chose and what happened:

* ``Tournament`` is the event: format and its options, the table rules (``Rules.to_dict()``),
  best-of-N, the turn timer, limits and times, and its status. ``version`` counts every change so
  a live page knows when to re-render.
* ``Entry`` is a player in the event with the rating frozen for seeding when they registered;
  ``state`` says whether they are still in (withdrawn, removed by the organiser, or dropped as a
  no-show at the end of check-in).
* ``Round`` groups the pairings played together (a bracket's wave, a Swiss round, a multi-table
  round, the final table).
* ``Pairing`` is one match of the event: two players (or one with a bye), or three to six at a
  multi-table round, seated at a private ``games.Table`` whose matches are its games (a best of
  three is up to three matches at that table). An elimination pairing names its bracket ``slot``;
  the bracket itself is never stored but derived from the slots' winners
  (``tournaments.formats.elimination.bracket_state``). ``PairingPlayer`` holds each player's seat and
  final place at it.
* ``ResultCorrection`` logs each result the organiser changed, with the reason.

An arena (``Format.ARENA``) runs for ``duration_minutes`` from its start (``ends_at``): its
pairings all belong to one ``Round`` and are made one table at a time, whenever players are free
(``tournaments.formats.arena.pairing``). ``Entry.paused`` and ``Entry.waiting_since`` say who may be
paired and since when; ``PairingPlayer.berserk`` who halved their timer for a game. The points
are never stored: they are recomputed from the finished pairings in order
(``tournaments.formats.arena.scoring``).

Every write goes through ``tournaments.services``; reads for pages go through
``tournaments.selectors``.
"""

from __future__ import annotations

import random

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.words import variant_name


def new_draw_seed() -> int:
    """The seed of the shuffle that breaks equal ratings (stored so the draw can be replayed)."""
    return random.SystemRandom().randrange(1, 2**31)


class Tournament(models.Model):
    """An event run by an organiser and played out by the site."""

    class Format(models.TextChoices):
        SINGLE = "single", _("Single elimination")
        DOUBLE = "double", _("Double elimination")
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")
        MULTI_TABLE = "multi_table", _("Multi-table rounds")
        ARENA = "arena", _("Arena")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        CHECK_IN = "check_in", _("Check-in")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", pgettext_lazy("a tournament's status", "Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=80)
    description = models.TextField(_("description"), blank=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="organised_tournaments",
        verbose_name=_("organiser"),
    )
    format = models.CharField(_("format"), max_length=16, choices=Format.choices)
    third_place = models.BooleanField(_("third-place match"), default=False)
    legs = models.PositiveSmallIntegerField(_("legs"), default=1, help_text=_("Round robin: 1 or 2."))
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=0, help_text=_("Swiss and multi-table: how many rounds.")
    )
    final_table = models.PositiveSmallIntegerField(
        _("final table"), default=0, help_text=_("Multi-table: the top k play a final table (0: none).")
    )
    duration_minutes = models.PositiveSmallIntegerField(
        _("duration (minutes)"), default=0, help_text=_("Arena: how long pairing goes on.")
    )
    berserk = models.BooleanField(
        _("berserk allowed"),
        default=False,
        help_text=_("Arena: a player may halve their own turn timer for a bonus point."),
    )
    ends_at = models.DateTimeField(
        _("pairing ends"),
        null=True,
        blank=True,
        help_text=_("Arena: set at the start; games in play then finish."),
    )
    rules = models.JSONField(_("rules"), help_text=_("The engine's Rules.to_dict() of every table."))
    best_of = models.PositiveSmallIntegerField(_("best of"), default=1)
    turn_seconds = models.PositiveSmallIntegerField(_("turn timer (seconds)"), default=30)
    min_players = models.PositiveSmallIntegerField(_("minimum players"), default=2)
    max_players = models.PositiveSmallIntegerField(_("maximum players"), default=16)
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    registration_deadline = models.DateTimeField(_("registration deadline"), null=True, blank=True)
    checkin_minutes = models.PositiveSmallIntegerField(
        _("check-in window (minutes)"), default=0, help_text=_("0: no check-in.")
    )
    rated = models.BooleanField(_("rated"), default=False)
    bots_allowed = models.BooleanField(_("bots allowed"), default=False)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT, db_index=True
    )
    draw_seed = models.PositiveIntegerField(_("draw seed"), default=new_draw_seed, editable=False)
    version = models.PositiveIntegerField(_("version"), default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="won_tournaments",
        verbose_name=_("winner"),
    )

    class Meta:
        ordering = ("-starts_at",)
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        # Running someone else's tournament (``selectors.may_run``): given by the "Tournament
        # directors" group (``services.directors_group_ensure``), never by being staff alone.
        permissions = [("run_any_tournament", _("Can run any organiser's tournament"))]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_players__gte=2, max_players__gte=models.F("min_players")),
                name="tournament_player_limits",
            ),
            models.CheckConstraint(condition=models.Q(best_of__gte=1), name="tournament_best_of"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def variant_name(self) -> str:
        """The tables' variant in the active language ("Подкидной")."""
        return variant_name(str(self.rules.get("variant", "")))

    @property
    def is_elimination(self) -> bool:
        return self.format in (self.Format.SINGLE, self.Format.DOUBLE)

    @property
    def is_multi_table(self) -> bool:
        return self.format == self.Format.MULTI_TABLE

    @property
    def is_arena(self) -> bool:
        return self.format == self.Format.ARENA

    @property
    def is_open(self) -> bool:
        """Whether players may still register or withdraw without forfeiting games."""
        return self.status in (self.Status.REGISTRATION, self.Status.CHECK_IN)

    @property
    def is_live(self) -> bool:
        """Running or paused: pairings exist and results count."""
        return self.status in (self.Status.RUNNING, self.Status.PAUSED)


class Entry(models.Model):
    """A player registered in a tournament."""

    class State(models.TextChoices):
        ACTIVE = "active", _("In")
        WITHDRAWN = "withdrawn", _("Withdrew")
        REMOVED = "removed", _("Removed by the organiser")
        NO_SHOW = "no_show", _("Did not check in")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        verbose_name=_("player"),
    )
    seed_rating = models.FloatField(_("seed rating"))
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    checked_in = models.BooleanField(_("checked in"), default=False)
    state = models.CharField(_("state"), max_length=16, choices=State.choices, default=State.ACTIVE)
    place = models.PositiveSmallIntegerField(_("final place"), null=True, blank=True)
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    paused = models.BooleanField(
        _("paused"), default=False, help_text=_("Arena: not paired until they come back.")
    )
    waiting_since = models.DateTimeField(
        _("free since"),
        null=True,
        blank=True,
        help_text=_("Arena: when the player last became free to play."),
    )

    class Meta:
        ordering = ("tournament", "seed", "registered_at")
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=("tournament", "player"), name="entry_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.player}"

    @property
    def is_active(self) -> bool:
        return self.state == self.State.ACTIVE


class Round(models.Model):
    """Pairings played together: a bracket wave, a Swiss round, a multi-table round, the final."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    final = models.BooleanField(_("final table"), default=False)
    finished = models.BooleanField(_("finished"), default=False)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=("tournament", "number"), name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class Pairing(models.Model):
    """One match of the tournament and the games table it is played at."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        DONE = "done", _("Done")
        BYE = "bye", _("Bye")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("tournament")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("round")
    )
    board = models.PositiveSmallIntegerField(_("board"))
    slot = models.CharField(_("bracket slot"), max_length=16, blank=True)
    table = models.OneToOneField(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournament_pairing",
        verbose_name=_("table"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PLAYING, db_index=True
    )
    score = models.FloatField(
        _("score of the first player"), null=True, blank=True, help_text=_("Two players: 1, 0.5 or 0.")
    )
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    fool = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fool"),
    )
    forfeit = models.BooleanField(_("forfeit"), default=False)
    games = models.JSONField(
        _("game scores"), default=list, help_text=_("Two players: the first player's score per game.")
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ("tournament", "round__number", "board")
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        constraints = [
            models.UniqueConstraint(fields=("round", "board"), name="pairing_unique_board"),
            models.UniqueConstraint(
                fields=("tournament", "slot"), condition=~models.Q(slot=""), name="pairing_unique_slot"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.slot or self.board}"

    @property
    def is_done(self) -> bool:
        return self.status != self.Status.PLAYING


class PairingPlayer(models.Model):
    """A player of a pairing: their side (two players) or seat, and their place when it ended."""

    pairing = models.ForeignKey(
        Pairing, on_delete=models.CASCADE, related_name="players", verbose_name=_("pairing")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournament_pairings",
        verbose_name=_("player"),
    )
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    berserk = models.BooleanField(
        _("berserk"),
        default=False,
        help_text=_("Arena: the player halved their own turn timer in this game."),
    )

    class Meta:
        ordering = ("pairing", "position")
        verbose_name = _("pairing player")
        verbose_name_plural = _("pairing players")
        constraints = [
            models.UniqueConstraint(fields=("pairing", "position"), name="pairingplayer_unique_position"),
            models.UniqueConstraint(fields=("pairing", "user"), name="pairingplayer_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.pairing} · {self.position}"


class ResultCorrection(models.Model):
    """A result the organiser changed by hand, with the reason they gave."""

    pairing = models.ForeignKey(
        Pairing, on_delete=models.CASCADE, related_name="corrections", verbose_name=_("pairing")
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("by")
    )
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))
    reason = models.TextField(_("reason"))
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ("-at",)
        verbose_name = _("result correction")
        verbose_name_plural = _("result corrections")

    def __str__(self) -> str:
        return f"{self.pairing} · {self.at:%Y-%m-%d %H:%M}"
