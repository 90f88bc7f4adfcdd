"""Game review: the strong search's verdict on each decision of one player, from that player's
information only (:mod:`games.bots.assess`).

``models`` (a review per match and seat, a row per decision), ``services`` (asking, one step of
the work, the rate limit), ``selectors`` (reads for the pages and the export), ``presenters``
(labels per replay step, the chart, the accuracy figure), ``views`` (ask, progress). The work
runs as ``history.tasks.review_step`` on the ``reviews`` queue, one decision per run.
"""
