"""The arena format's pure logic (no Django; players are plain ``int`` ids, as in
``tournaments.formats.favourites``):

* :mod:`tournaments.formats.arena.scoring`: the points of a finished game by finishing place, the streak
  that doubles them, berserk's bonus, and the leaderboard's order with its tiebreaks;
* :mod:`tournaments.formats.arena.pairing`: who of the players waiting now sits down with whom, for
  two-player duels and for tables of three to six.

``tournaments.services`` keeps the rows and calls these; ``docs/arena.md`` explains both with
worked examples.
"""
