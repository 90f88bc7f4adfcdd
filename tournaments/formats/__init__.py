"""The tournament formats, pure Python (no Django, like ``games.engine``): players are plain
``int`` ids and every function takes and returns plain data, so each format is property-tested
on its own (``tests/tournaments/test_tourn_*.py``).

* ``favourites``: the seeds (entrants strongest first) and where they sit in a bracket or
  around tables;
* ``elimination``: single and double elimination brackets, and a best-of-N series;
* ``roundrobin``: the circle method's schedule;
* ``swiss``: a Swiss round paired by points without repeat pairings;
* ``multitable``: balanced tables of three to six, the final table, the points by place;
* ``standings``: the standings and tiebreaks of the round-based formats;
* ``arena/``: the arena's pairing (``arena.pairing``) and scoring (``arena.scoring``).

``tournaments.services`` keeps the rows and calls these.
"""
