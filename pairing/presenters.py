"""The quick-pairing grid and a challenge in words, for the templates and the grid socket."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.words import variant_name
from pairing import selectors
from pairing.models import Challenge, Seek
from pairing.services import BOTS_AFTER_SECONDS
from pairing.setups import GRID, Setup


@dataclass(frozen=True, slots=True)
class Cell:
    setup: Setup
    title: str
    detail: str
    waiting: int
    playing: int
    mine: bool


def setup_title(setup: Setup) -> str:
    """The cell's heading: "Podkidnoy · 2 vs 2", "Circle · 4 players"."""
    if setup.teams:
        seats = _("2 vs 2")
    else:
        seats = _("%(players)d players") % {"players": setup.players}
    return f"{variant_name(setup.variant)} · {seats}"


def setup_detail(setup: Setup) -> str:
    """The cell's second line: "36 cards · 30 s · rated"."""
    kind = _("rated") if setup.rated else _("casual")
    cards = _("%(deck)d cards") % {"deck": setup.deck}
    seconds = _("%(seconds)d s") % {"seconds": setup.turn_seconds}
    return f"{cards} · {seconds} · {kind}"


def present_grid(user: User | AnonymousUser) -> dict[str, object]:
    """The grid's context: its cells with live counts, and the viewer's waiting seek."""
    counts = selectors.grid_counts()
    seek = selectors.waiting_seek(user=user)
    mine = seek.setup if seek else None
    cells = [
        Cell(
            setup,
            setup_title(setup),
            setup_detail(setup),
            counts.waiting[setup.key],
            counts.playing[setup.key],
            setup == mine,
        )
        for setup in GRID
    ]
    return {
        "cells": cells,
        "seek": seek,
        "seek_custom": seek is not None and mine not in GRID,
        "seek_title": (setup_title(mine) + " · " + setup_detail(mine)) if mine else "",
        "bots_in_ms": _bots_in_ms(seek),
        "waiting_total": sum(counts.waiting.values()),
        "playing_total": sum(counts.playing.values()),
        "signed_in": user.is_authenticated,
    }


def _bots_in_ms(seek: Seek | None) -> int:
    """In how many milliseconds the seek may fill its table with bots."""
    if seek is None:
        return 0
    waited = (timezone.now() - seek.created).total_seconds()
    return max(0, int((BOTS_AFTER_SECONDS - waited) * 1000))


def present_challenge(challenge: Challenge) -> dict[str, object]:
    return {
        "challenge": challenge,
        "title": setup_title(challenge.setup),
        "detail": setup_detail(challenge.setup),
        "url": reverse("pairing:challenge", args=[challenge.pk]),
    }
