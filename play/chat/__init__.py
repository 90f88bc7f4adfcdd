"""Table chat: players and spectators of a match each have their room; quick phrases in every
language, free text for those who turn it on, reports and the staff's moderation of them.

Its models are the ``play`` app's (``play.models``, stored with the match; ``history`` exports
the lines with a match's record). It asks live play who may watch, and ``people`` about blocks
and sanctions.
"""
