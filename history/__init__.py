"""Match history: a player's finished matches (filtered, paginated, exported as CSV), a finished
match's page with its replay, and the fair-deal page.

It sits above ``games``, ``ratings`` and ``tournaments``: a history row shows the rating change
and the tournament of a match, so it reads all three, and none of them reads it.
"""
