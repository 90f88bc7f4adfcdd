"""The club's front pages, composed from every app: the home page and a player's page.

The top floor of the house: it reads ``accounts``, ``games``, ``ratings``, ``tournaments`` and
``history``, and nothing reads it.
"""
