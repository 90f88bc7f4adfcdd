"""Every sentence the engine refuses an action with, declared once, by its stable code.

A refusal is a code (``does_not_beat``), an English template with ``%(name)s`` placeholders
(the params :class:`~games.engine.errors.IllegalAction` carries) and, when a count decides
the grammar (``defender_limit``, ``transfer_limit``), a singular and a plural form and the
name of the count. The engine renders the English; the site translates the same template:
``gettext(refusal.template) % params``, or for a counted one
``ngettext(refusal.template, refusal.plural, params[refusal.count]) % params``.

The engine imports no Django, yet ``makemessages`` must find these strings. It runs
``xgettext`` with ``--keyword=gettext_noop``, and xgettext's own Python keywords include
``ngettext:1,2``, so the two markers below carry exactly those names: ``gettext_noop`` hands
its sentence back, ``ngettext`` picks the English form for ``n``.

>>> REFUSALS["does_not_beat"].render({"cover": "7♠", "attack": "9♠"})
'7♠ does not beat 9♠'
>>> limit = REFUSALS["defender_limit"]
>>> limit.count, limit.render({"cards": 1, "ordinal": "second"})
('cards', 'the defender holds 1 card: no second attack card')
>>> limit.plural
'the defender holds %(cards)d cards: no %(ordinal)s attack card'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation and return it unchanged (Django's name, no Django)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The English form for ``n`` (xgettext extracts both forms as one plural entry)."""
    return singular if n == 1 else plural


@dataclass(frozen=True, slots=True)
class Refusal:
    """One refusal: ``template`` (the singular form of a counted one), ``plural`` and
    ``count`` (the name of the count among the params) only when a count decides the form."""

    code: str
    template: str
    plural: str | None = None
    count: str | None = None

    def render(self, params: Mapping[str, object]) -> str:
        """The English sentence with ``params`` filled in."""
        if self.plural is None or self.count is None:
            return self.template % params
        n = params[self.count]
        return ngettext(self.template, self.plural, n if isinstance(n, int) else 0) % params


def counted(code: str, count: str, forms: Callable[[int], str]) -> Refusal:
    """A refusal whose grammar follows the count param ``count``; ``forms`` is the one
    ``ngettext`` call that declares (and marks) both English forms."""
    return Refusal(code, forms(1), forms(2), count)


_DECLARED = (
    Refusal("game_over", gettext_noop("the game is over")),
    Refusal("no_such_seat", gettext_noop("there is no seat %(seat)s")),
    Refusal("no_cards", gettext_noop("name at least one card")),
    Refusal("not_in_hand", gettext_noop("you do not hold %(cards)s")),
    Refusal("not_your_turn", gettext_noop("it is not your turn")),
    Refusal("not_now", gettext_noop("not now")),
    Refusal("no_redeal_rule", gettext_noop("this table plays without redeals")),
    Refusal("must_lead", gettext_noop("you lead this bout: lay a card")),
    Refusal("one_rank", gettext_noop("a lead is one card or several of one rank")),
    Refusal("joker_lead", gettext_noop("a joker never leads: it only covers")),
    Refusal("partner", gettext_noop("you may not throw in under your partner")),
    Refusal("passed", gettext_noop("you passed: wait for a change on the table")),
    Refusal("rank_not_on_table", gettext_noop("no card of the rank of %(cards)s is on the table")),
    Refusal("round_not_open", gettext_noop("throw-ins wait until the defender has covered every card")),
    Refusal("not_your_round_turn", gettext_noop("it is not your turn to throw in")),
    Refusal("round_under_way", gettext_noop("wait: the throw-in round is not over yet")),
    Refusal("first_bout_limit", gettext_noop("before the first bito a bout has at most 5 attack cards")),
    Refusal("six_limit", gettext_noop("a bout has at most 6 attack cards")),
    Refusal("after_joker", gettext_noop("no more throw-ins after a joker covered")),
    Refusal("defender_attacks", gettext_noop("the defender does not throw in")),
    Refusal("defender_passes", gettext_noop("cover the cards or take them")),
    Refusal("not_defender", gettext_noop("only the defender may do that")),
    Refusal("one_cover", gettext_noop("cover one card at a time")),
    Refusal("not_on_table", gettext_noop("%(card)s is not on the table")),
    Refusal("covered", gettext_noop("%(card)s is already covered")),
    Refusal("does_not_beat", gettext_noop("%(cover)s does not beat %(attack)s")),
    Refusal("no_transfer", gettext_noop("podkidnoy has no transfer")),
    Refusal("no_show", gettext_noop("this table does not transfer by showing a trump")),
    Refusal("transfer_single_lead", gettext_noop("a transfer needs a bout that began with one card")),
    Refusal("transfer_after_cover", gettext_noop("no transfer once a card is covered")),
    Refusal("transfer_rank", gettext_noop("a transfer uses cards of the rank on the table")),
    Refusal("show_trump", gettext_noop("show a trump of the attack rank")),
    Refusal("shown_twice", gettext_noop("that trump was already shown this bout")),
    Refusal("must_beat", gettext_noop("the drawn card must beat a circle card")),
    Refusal("not_drawn", gettext_noop("beat with the card you drew")),
    Refusal("not_in_circle", gettext_noop("that card is not in the circle")),
    Refusal(
        "no_redeal", gettext_noop("a redeal needs five or six cards of one suit, before the first attack")
    ),
    Refusal(
        "not_neighbour", gettext_noop("only the attacker and the player after the defender may throw in")
    ),
    Refusal(
        "circle_lead",
        gettext_noop("lead one card, a pair and a single, or two pairs and a single of different ranks"),
    ),
    # The counted ones, whose grammar follows the number of cards.
    counted(
        "defender_limit",
        "cards",
        lambda n: ngettext(
            "the defender holds %(cards)d card: no %(ordinal)s attack card",
            "the defender holds %(cards)d cards: no %(ordinal)s attack card",
            n,
        ),
    ),
    counted(
        "transfer_limit",
        "cards",
        lambda n: ngettext(
            "the next defender holds %(cards)d card: too many attack cards for a transfer",
            "the next defender holds %(cards)d cards: too many attack cards for a transfer",
            n,
        ),
    ),
)

#: Every refusal by its code.
REFUSALS: Mapping[str, Refusal] = {r.code: r for r in _DECLARED}

#: The ordinals ``defender_limit`` names the refused card with (its ``ordinal`` param), marked
#: so the site can translate the param too.
ORDINALS = (
    gettext_noop("first"),
    gettext_noop("second"),
    gettext_noop("third"),
    gettext_noop("fourth"),
    gettext_noop("fifth"),
    gettext_noop("sixth"),
)


def ordinal(k: int) -> str:
    """``k`` (1 to 6: an attack card's place in a bout) as an English ordinal word."""
    return ORDINALS[k - 1]
