"""Ratings: Elo per pool (a variant and a table kind) for multiplayer finishing orders and teams,
applied once per finished rated match, with the history that explains every rating.

The app listens to ``games.signals.match_finished``; ``games`` never imports it.
"""
