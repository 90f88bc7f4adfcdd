"""Every write of live play, by sub-domain (HackSoft's advice for a grown ``services.py``;
Zulip's ``zerver/actions/``). Views, consumers, Celery tasks, commands and tournaments parse their
input and call these, with keyword-only arguments; a refused call raises a ``GameError`` and
changes nothing.

* ``tables``: open a table, take or leave a seat, fill it with bots, send a value for the next
  deal, wait for the values and deal, abort, play again;
* ``quick``: a game against bots in one step;
* ``moves``: a player's action, a bot's turn, a resignation;
* ``limits``: how many tables one player may keep open and open, unjoined tables, host presence;
* ``playban``: the deal-fishing ledger, and the one check of both bars from rated play (the
  staff's and the ledger's);
* ``clock``: beat's clock playing the deadlines that ran out, timeouts, bot turns sent again
  after a restart;
* ``turn``: the core every change to a match in play goes through (lock, play, commit, finish,
  send the bot turns);
* ``errors``: the refusals.

This module only hands their public names on, so that callers write ``services.action_apply``.
Patch a name where it is defined (``play.services.tables.new_seed``), not here.
"""

from play.services.clock import (
    match_rearm,
    match_timeout,
    matches_rearm,
    matches_timeout_overdue,
)
from play.services.errors import (
    GameError,
    IllegalMove,
    MatchOver,
    NotYourSeat,
    RatedRulesError,
    StaleVersion,
    TableError,
    ValueNotAwaited,
    validate_rated_rules,
)
from play.services.limits import host_seen
from play.services.moves import action_apply, bot_turn, match_halve_timer, match_resign
from play.services.quick import bot_game_start
from play.services.tables import (
    match_abort,
    match_start,
    play_again,
    play_again_with_bots,
    seat_leave,
    seats_fill_with_bots,
    seed_contribute,
    table_create,
    table_deal_due,
    table_join,
    tables_close_unjoined,
    tables_sweep,
)

__all__ = [
    "GameError",
    "IllegalMove",
    "MatchOver",
    "NotYourSeat",
    "RatedRulesError",
    "StaleVersion",
    "TableError",
    "ValueNotAwaited",
    "action_apply",
    "bot_game_start",
    "bot_turn",
    "host_seen",
    "match_abort",
    "match_halve_timer",
    "match_rearm",
    "match_resign",
    "match_start",
    "match_timeout",
    "matches_rearm",
    "matches_timeout_overdue",
    "play_again",
    "play_again_with_bots",
    "seat_leave",
    "seats_fill_with_bots",
    "seed_contribute",
    "table_create",
    "table_deal_due",
    "table_join",
    "tables_close_unjoined",
    "tables_sweep",
    "validate_rated_rules",
]
