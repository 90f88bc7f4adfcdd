"""Tooling that measures or builds the product and is not part of it: the scripted load client
and ``manage.py loadtest``, ``manage.py bench_moves``, and the card art generator
(``python -m tools.cardart``). Nothing of the site imports this package."""
