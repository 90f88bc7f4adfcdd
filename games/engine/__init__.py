"""The Durak rules engine: podkidnoy, perevodnoy and circle, exactly as RULES.md says.

Pure Python, no Django.  Everything the site, bots and tests use is exported here.

>>> from games.engine import Rules, new_game, Action
>>> state = new_game(Rules(players=2), seed="readme")
>>> seat = state.actors()[0]
>>> events = state.apply(seat, state.default_action(seat))
>>> events[0].kind
'attack'

Choices where the rules are silent (also documented in the modules that hold them):

* The defender may take only while some attack card is uncovered.
* Throwers may pass at any time; any change on the table reopens every pass.  A seat that
  cannot throw anything in (no card of a table rank, or the limit is reached) is not
  awaited: it counts as passed.  Outside ``circle`` throw-ins may come before the
  defender covers.
* ``legal_actions`` lists throw-ins one card at a time; a several-card throw-in is also
  legal.  In ``circle`` stage 2 the seat whose round turn it is stays in turn after a
  throw-in until it passes or the limit is reached.
* ``rules.max_actions`` (default 3000) guarantees termination: a game reaching it ends
  as a draw among the players still holding cards (reason ``"move_cap"``).
* Circle: a drawn card with any target waits for the player's ``beat``; players with no
  cards when stage 2 begins are out at once.  Redeal is refused in circle.
* Contract additions: ``new_game(..., first_attacker=, events=)``; ``Deal(discard=,
  bito_done=)``; ``GameRecord(deal=)`` for records of scripted deals.
"""

from .actions import Action, FastAction
from .cards import (
    BLACK_JOKER,
    RED_JOKER,
    beats,
    card_from_str,
    card_label,
    card_str,
    deck_cards,
)
from .errors import IllegalAction, NotationError
from .events import Event
from .record import GameRecord
from .result import Result
from .rules import Rules, RulesError
from .setup import Deal, new_game
from .shuffle import shuffled
from .state import GameState
from .views import View

__all__ = [
    "BLACK_JOKER",
    "RED_JOKER",
    "Action",
    "Deal",
    "Event",
    "FastAction",
    "GameRecord",
    "GameState",
    "IllegalAction",
    "NotationError",
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
