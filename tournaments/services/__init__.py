"""Every write of tournaments, by sub-domain (as ``play.services``). Views, consumers,
Celery tasks and the Bot API parse their input and call these, with keyword-only arguments; a
refused request raises ``TournamentError`` with a translated ``message``, and nothing changed.

* ``organising``: set one up, change its settings, open and close registration;
* ``entries``: register (or join a running arena), bots, check-in, withdraw, remove a player;
* ``running``: the organiser's start, pause, resume, cancel, finish, a result corrected;
* ``arena``: the arena's pairing pass (who sits down with whom, as soon as they are free), a
  player's pause and berserk;
* ``matches``: a tournament's game finished or dealt (news from live play, through the tasks);
* ``tick``: beat's periodic pass (start on time, arena passes, lost tasks);
* ``directors``: the group that may run anyone's tournament;
* ``progress``: moving the event on (a pairing's next game, the next round or bracket slot);
* ``pairings``: a pairing's rows and its live table; ``finish``: the end, with the places;
* ``locking``: the tournament row's lock, its version and the page's broadcast; ``errors``.

The formats' rules are pure and live in ``tournaments.formats``; these keep the rows and call
them. Every change of a running tournament happens under the tournament row's lock and derives
what comes next from what is stored (``locking``, ``progress``), so it happens exactly once.

This module only hands the public names on, so that callers write ``services.tournament_start``.
Patch a name where it is defined (``tournaments.services.locking.group_send_on_commit``), not
here.
"""

from tournaments.services.arena import (
    ARENA_PASS_TASK,
    arena_berserk,
    arena_pass,
    arena_pause,
    arena_resume,
)
from tournaments.services.directors import directors_group_ensure
from tournaments.services.entries import (
    bots_add,
    entry_check_in,
    entry_register,
    entry_withdraw,
    player_remove,
)
from tournaments.services.errors import NotAllowed, TournamentError
from tournaments.services.locking import tournament_group
from tournaments.services.matches import match_dealt, match_finished
from tournaments.services.organising import (
    SETTINGS_FIELDS,
    registration_close,
    registration_open,
    tournament_create,
    tournament_update,
)
from tournaments.services.running import (
    result_correct,
    tournament_cancel,
    tournament_finish,
    tournament_pause,
    tournament_resume,
    tournament_start,
)
from tournaments.services.tick import tournaments_tick

__all__ = [
    "ARENA_PASS_TASK",
    "SETTINGS_FIELDS",
    "NotAllowed",
    "TournamentError",
    "arena_berserk",
    "arena_pass",
    "arena_pause",
    "arena_resume",
    "bots_add",
    "directors_group_ensure",
    "entry_check_in",
    "entry_register",
    "entry_withdraw",
    "match_dealt",
    "match_finished",
    "player_remove",
    "registration_close",
    "registration_open",
    "result_correct",
    "tournament_cancel",
    "tournament_create",
    "tournament_finish",
    "tournament_group",
    "tournament_pause",
    "tournament_resume",
    "tournament_start",
    "tournament_update",
    "tournaments_tick",
]
