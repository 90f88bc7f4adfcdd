"""Every engine code in the player's language: one dictionary of words for the whole site.

The engine speaks in codes (variants, table kinds, what it awaits from a seat, action and event
kinds, refusal codes with their parameters); pages, sockets, the replay and the history say them
in words through this module only, so a code is translated once and a new code has one place to
go. Numbers and card codes stay as they are: card faces and labels come from
``games.templatetags.cards``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext_lazy, gettext_noop, pgettext_lazy

from games.engine import IllegalAction, LegalMove, PositionError, Refusal, RulesError
from games.memos import gettext as _
from games.memos import in_language, ngettext
from games.pools import all_pools
from games.templatetags.cards import card_label, card_text

# --- variants and pools ------------------------------------------------------------------------

#: A variant's short name (seats, headings, the history list).
VARIANT_NAMES = {
    "podkidnoy": pgettext_lazy("variant", "Podkidnoy"),
    "perevodnoy": pgettext_lazy("variant", "Perevodnoy"),
    "circle": pgettext_lazy("variant", "Circle"),
}

#: A variant with what it is about (the table form, pool names).
VARIANT_CHOICES = (
    ("podkidnoy", gettext_lazy("Podkidnoy (throw-in)")),
    ("perevodnoy", gettext_lazy("Perevodnoy (transfer)")),
    ("circle", gettext_lazy("Circle (two stages)")),
)

#: ``games.pools.KINDS`` in words.
KIND_NAMES = {
    "2": gettext_lazy("two players"),
    "3-6": gettext_lazy("3-6 players"),
    "2v2": gettext_lazy("2 vs 2"),
}


def variant_name(variant: str) -> str:
    """The short name of ``variant`` (the code itself for an unknown one)."""
    return str(VARIANT_NAMES.get(variant, variant))


def pool_label(pool: str) -> str:
    """``"podkidnoy:3-6"`` -> "Podkidnoy (throw-in), 3-6 players"."""
    variant, _sep, kind = pool.partition(":")
    variants = {key: str(label) for key, label in VARIANT_CHOICES}
    return f"{variants.get(variant, variant)}, {KIND_NAMES.get(kind, kind)}"


def pool_choices() -> list[tuple[str, str]]:
    """Every pool with its label (the leaderboard's tabs, the history's table filter)."""
    return [(pool, pool_label(pool)) for pool in all_pools()]


# --- what the game awaits ----------------------------------------------------------------------


#: What the engine awaits from a seat, as a seat's badge (``awaiting_words``) and as the status
#: line of the viewer it awaits (``your_move_words``). Marked here, translated when asked: every
#: push draws a badge for each seat, and translating all of a table's words to say one of them
#: was about a quarter of a push's translations.
AWAITING_WORDS = {
    "lead": gettext_noop("to lead"),
    "cover": gettext_noop("to cover"),
    "throw_in": gettext_noop("to throw in"),
    "take_more": gettext_noop("to throw in"),
    "beat": gettext_noop("to beat"),
}
YOUR_MOVE_WORDS = {
    "lead": gettext_noop("Your move: lead"),
    "cover": gettext_noop("Your move: cover or take"),
    "throw_in": gettext_noop("Your move: throw in or pass"),
    "take_more": gettext_noop("Your move: throw in more or pass"),
    "beat": gettext_noop("Your move: choose the card to beat"),
}


def awaiting_words(code: str) -> str:
    """A seat's badge for what the engine awaits from it (``GameState.awaiting()`` codes)."""
    if not code:
        return ""
    return _(AWAITING_WORDS.get(code, gettext_noop("to move")))


def your_move_words(code: str) -> str:
    """The status line of the viewer the engine awaits."""
    return _(YOUR_MOVE_WORDS.get(code, gettext_noop("Your move")))


# --- actions -----------------------------------------------------------------------------------


def action_label(move: LegalMove, *, bito: bool = False) -> str:
    """A legal action in words: a button's label and the no-script list's entry (``bito``: a
    pass now sends the covered table to the discard)."""
    labels = ", ".join(card_label(c) for c in move.cards)
    target = card_label(move.target) if move.target is not None else ""
    match move.kind:
        case "attack":
            return _("Play %(cards)s") % {"cards": labels}
        case "cover":
            return _("Cover %(target)s with %(card)s") % {"target": target, "card": labels}
        case "transfer":
            return _("Transfer with %(cards)s") % {"cards": labels}
        case "show":
            return _("Show %(cards)s to transfer") % {"cards": labels}
        case "beat":
            return _("Beat %(target)s with %(card)s") % {"target": target, "card": labels}
        case "take":
            return _("Take")
        case "pass":
            return _("Bito") if bito else _("Pass")
        case "redeal":
            return _("Redeal")
    return move.notation


# --- events ------------------------------------------------------------------------------------

#: Event kinds that are a player's own action (the log marks the others as the game's doing).
PLAYER_EVENT_KINDS = frozenset({"attack", "cover", "transfer", "show", "take", "pass", "beat", "redeal"})


def _cards_html(codes: Sequence[str]) -> SafeString:
    return format_html_join(" ", "{}", ((card_text(c),) for c in codes))


def describe_event(event: Mapping[str, Any], names: Mapping[int, str]) -> SafeString | None:
    """One public engine event (``Event.to_dict()``) as a sentence; ``None`` for silent ones."""
    seat = event.get("seat")
    name = names.get(seat, "?") if seat is not None else ""
    return _described(
        str(event.get("kind")),
        name,
        isinstance(name, SafeData),
        tuple(event.get("cards", ())),
        event.get("target") or "",
        int(event.get("count", 0)),
        int(event.get("limit", 0)),
    )


@in_language(4096)
def _described(
    kind: str,
    name: str,
    name_safe: bool,
    cards: tuple[str, ...],
    target: str,
    count: int,
    limit: int,
) -> SafeString | None:
    """``describe_event`` of everything it reads from the event, remembered: every viewer of a
    move words its new lines (a push each, a tab each), and a line is a few translations and card
    names. ``name_safe`` is only the key: a name already marked safe is not escaped again, and
    equals the same text unmarked."""
    sentence = _sentence(kind, count)
    if sentence is None:
        return None
    shown = card_text(target) if target else ""
    args = {"name": name, "cards": _cards_html(cards), "target": shown, "count": count, "limit": limit}
    # The translated sentence is escaped as text; the card spans are already safe HTML.
    safe_args = {
        key: conditional_escape(value) if isinstance(value, str) else value for key, value in args.items()
    }
    return mark_safe(conditional_escape(sentence) % safe_args)


def _sentence(kind: str, count: int) -> str | None:
    match kind:
        case "attack":
            if count == 1:
                return _("%(name)s leads %(cards)s")
            return _("%(name)s throws in %(cards)s")
        case "cover":
            return _("%(name)s covers %(target)s with %(cards)s")
        case "transfer":
            return _("%(name)s transfers with %(cards)s")
        case "show":
            return _("%(name)s shows %(cards)s and transfers")
        case "take":
            return _("%(name)s takes")
        case "pass":
            return _("%(name)s passes")
        case "took":
            return ngettext("%(name)s picks up %(count)d card", "%(name)s picks up %(count)d cards", count)
        case "bito":
            return ngettext(
                "Bito: %(count)d card to the discard pile",
                "Bito: %(count)d cards to the discard pile",
                count,
            )
        case "draw":
            return ngettext("%(name)s draws %(count)d card", "%(name)s draws %(count)d cards", count)
        case "out":
            return _("%(name)s is out: place %(count)d")
        case "redeal":
            return _("%(name)s shows %(cards)s: redeal")
        case "skip":
            return _("%(name)s holds only jokers and skips the attack")
        case "game_over":
            return _("The game is over")
        case "turn_up":
            return _("%(name)s turns up %(cards)s")
        case "beat":
            return _("%(name)s beats %(target)s with %(cards)s and takes both")
        case "to_circle":
            return _("%(cards)s joins the circle")
        case "trump_taken":
            return _("%(name)s takes the trump card %(cards)s")
        case "leftovers":
            return ngettext(
                "%(name)s gets %(count)d leftover card",
                "%(name)s gets %(count)d leftover cards",
                count,
            )
        case "stage2":
            return _("Stage 2 begins: %(name)s attacks first")
        # Not the engine's: what the turn timer did (play.services.clock), logged with the
        # move it played so the log says why that move was made.
        case "timeout" if count:
            return _("Time ran out for %(name)s (%(count)d of %(limit)d in a row), so the timer played:")
        case "timeout":
            return _(
                "Time ran out for %(name)s, so the timer played (this does not count towards autopilot):"
            )
        case "autopilot":
            return _(
                "%(name)s ran out of time %(limit)d times in a row: a bot plays the seat from now on,"
                " and the game counts as lost for them."
            )
    return None


# --- refusals ----------------------------------------------------------------------------------


def illegal_message(error: IllegalAction) -> str:
    """Why the engine refused a move, in the active language: the engine declares each refusal's
    English template once (``games.engine.refusals``, extracted by ``makemessages``); here it is
    translated and filled with the refusal's params (card labels, counts, the ordinal of a
    refused attack card). A code the engine does not declare keeps the engine's sentence.

    >>> from games.engine import IllegalAction
    >>> illegal_message(IllegalAction.of("does_not_beat", cover="7♠", attack="9♠"))
    'That move is not allowed: 7♠ does not beat 9♠.'
    >>> illegal_message(IllegalAction.of("defender_limit", cards=2, ordinal="third"))
    'That move is not allowed: the defender holds 2 cards: no third attack card.'
    """
    params = dict(error.params)
    if isinstance(params.get("ordinal"), str):
        params["ordinal"] = _(str(params["ordinal"]))
    reason = _refusal_words(error.refusal, params, error.message)
    return str(_("That move is not allowed: %(reason)s.") % {"reason": reason})


def rules_message(error: RulesError) -> str:
    """Why the engine refused a table, in the active language: the sentence the engine declares
    for the error's code (``games.engine.rules.TABLE_REFUSALS``), translated and filled with its
    params, so a form never re-derives the engine's checks to say them.

    >>> from games.engine import Rules
    >>> try:
    ...     Rules(players=3, teams=True)
    ... except RulesError as error:
    ...     rules_message(error)
    'This table is not possible: teams play 2 against 2: the table needs exactly 4 players.'
    """
    reason = _refusal_words(error.refusal, error.params, error.message)
    return str(_("This table is not possible: %(reason)s.") % {"reason": reason})


def position_message(error: PositionError) -> str:
    """Why the engine refused a position's text, in the active language: the sentence declared
    for the error's code (``games.engine.position.POSITION_REFUSALS``, or the table's refusal
    when the text names an impossible table), translated and filled with its params, which stay
    in the notation the text was written in.

    >>> from games.engine import PositionError
    >>> position_message(PositionError.of("two_places", card="6S"))
    'This position is not possible: 6S is in two places.'
    """
    reason = _refusal_words(error.refusal, error.params, error.message)
    return str(_("This position is not possible: %(reason)s.") % {"reason": reason})


def _refusal_words(refusal: Refusal | None, params: Mapping[str, object], english: str) -> str:
    """A declared refusal translated and filled with ``params`` (the plural form its count
    asks for); the engine's ``english`` for an undeclared code."""
    if refusal is None:
        return english
    count = params.get(refusal.count) if refusal.count else None
    try:
        if refusal.plural is not None and isinstance(count, int):
            return str(ngettext(refusal.template, refusal.plural, count) % params)
        return str(_(refusal.template) % params)
    except (KeyError, TypeError, ValueError):  # a template whose params the error lacks
        return english
