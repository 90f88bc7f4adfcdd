"""The Durak rules engine: podkidnoy, perevodnoy and circle, exactly as ``docs/rules.md`` says.

Pure Python, no Django.  Everything the site, bots and tests use is exported here.

Layout: the state's fields are declared once in :mod:`.data` and :class:`GameState`
(:mod:`.state`) is the public API over them, with a class per variant (per stage in
``circle``) chosen when the game is made; each rule lives in a module named for it
(:mod:`.bout` for a bout's rules, :mod:`.circle` for the two ``circle`` stages, :mod:`.deal`,
:mod:`.redeal`). Around them: the snapshot format (:mod:`.codec`), the position notation
(:mod:`.position`), who sees what (:mod:`.visibility`), refusals (:mod:`.refusals`), and states sampled from
one seat's information (:mod:`.infostate`) for the bots.

>>> from games.engine import Rules, new_game, Action
>>> state = new_game(Rules(players=2), seed="readme")
>>> seat = state.actors()[0]
>>> events = state.apply(seat, state.default_action(seat))
>>> events[0].kind
'attack'

Choices where the rules are silent (``docs/rules.md`` gives each with its reason; each is
also documented in the module that holds it):

* The defender may take only while some attack card is uncovered.
* Throwers may pass at any time; any change on the table (a card laid, a cover, a
  transfer or show, the take) reopens every pass; a seat that passed may not throw in
  until then.  Who is awaited rests on public facts only: every thrower who has not
  passed and holds cards is awaited while the limit leaves room (and the defender can
  still cover, or takes), a card that fits or not; with nothing to throw their one legal
  action is the pass.  Bito / the pick-up happen by themselves only when nobody is left
  so (the limit reached, a joker covered under ``throw_in_after_joker=False``, the
  throwers' hands or the defender's empty).  In ``circle`` stage 2 a seat's round turn
  is skipped on the same public facts.
* ``awaiting()`` names only the seats the game needs (``lead``, ``cover``, ``throw_in``,
  ``take_more``, ``beat``); optional moves (a redeal, a throw-in while cards are still
  uncovered) show in ``actors()`` only.  ``default_action()`` is what a timeout plays.
* Outside ``circle`` throw-ins may come before the defender covers ("at any time").
* ``legal_actions`` lists throw-ins one card at a time; a several-card throw-in is also
  legal.  In ``circle`` stage 2 the seat whose round turn it is stays in turn after a
  throw-in until it passes, reaches the limit or has no card left.
* The deal goes one card at a time clockwise from the dealer's left; on a whole-deck
  deal the last card (the dealer's) shows trump and stays in hand.  Derived seeds:
  ``{seed}/redeal{n}``, ``{seed}/leftovers``, ``{seed}/dealer``.  Any seat with five or
  more cards of a suit may claim the redeal until the first lead.
* After a transfer the limit counts the new defender's hand at the transfer; a show
  needs the new defender to hold at least as many cards as there are attack cards.
* Draws off: the last bout's defender is the fool (teams: the defender's team loses).
  A team game's result names ``losing_team``, and as its fool the one player of it left
  holding cards (no fool when both are).
* ``rules.max_actions`` (default 3000, at least 100) guarantees termination: a game
  reaching it ends as a draw among the players still holding cards (``"move_cap"``).
* Circle: a drawn card with any target waits for the player's ``beat``; players with no
  cards when stage 2 begins are out at once; a joker lead (``pass_on``) is taken by the
  defender at once; jokers are never thrown in nor used to transfer; redeal is refused
  and ``first_bout_limit_5`` ignored.

The public API: ``Rules`` (with ``Rules.options_for``, :class:`OptionSpec`), ``Deal`` (a dealt
position, ``discard=`` and ``bito_done=`` for one set up mid-game), ``new_game`` (``seed=``,
``first_attacker=``, ``events=``), ``Action`` and its notation, ``GameState`` (``apply``,
``legal_actions``, ``view``, ``spectator_view``, ``position`` / ``from_position``,
``attack_limit``), ``View.to_dict`` (``legal_cards`` / ``legal_complete``: a huge ``legal``
list is cut to the actions of one card, see :mod:`.visibility`; ``moves`` as :class:`LegalMove`),
``GameRecord`` (``deal=``, ``events()``), ``Result.drawn_seats``, ``Event.from_dict``, the
refusals (``IllegalAction.of`` / ``refusal``, :data:`REFUSALS`; a table's and a position's
carry codes too, :data:`TABLE_REFUSALS`, :data:`POSITION_REFUSALS`), :class:`InfoState` for
the bots, and the fast path the bots' playouts use: ``legal_fast`` / ``apply_fast`` with
``FastAction`` tuples.
"""

from .actions import KIND_NAMES, Action, FastAction, LegalMove
from .cards import (
    BLACK_JOKER,
    RED_JOKER,
    beats,
    card_from_str,
    card_label,
    card_str,
    deck_cards,
)
from .deal import Deal
from .errors import IllegalAction, NotationError
from .events import EVENT_KINDS, Event
from .infostate import InfoState, InfoStateError
from .phases import AWAITING_CODES
from .position import POSITION_REFUSALS, PositionError
from .record import GameRecord
from .refusals import REFUSALS, Refusal
from .result import Result
from .rules import TABLE_REFUSALS, OptionSpec, Rules, RulesError
from .shuffle import shuffled
from .start import new_game
from .state import GameState
from .visibility import View

__all__ = [
    "AWAITING_CODES",
    "BLACK_JOKER",
    "EVENT_KINDS",
    "KIND_NAMES",
    "POSITION_REFUSALS",
    "RED_JOKER",
    "REFUSALS",
    "TABLE_REFUSALS",
    "Action",
    "Deal",
    "Event",
    "FastAction",
    "GameRecord",
    "GameState",
    "IllegalAction",
    "InfoState",
    "InfoStateError",
    "LegalMove",
    "NotationError",
    "OptionSpec",
    "PositionError",
    "Refusal",
    "Result",
    "Rules",
    "RulesError",
    "View",
    "beats",
    "card_from_str",
    "card_label",
    "card_str",
    "deck_cards",
    "new_game",
    "shuffled",
]
