"""Table chat: players and spectators of a match each have their room; quick phrases in every
language, free text for those who turn it on, reports and the staff's moderation of them.

Floor: inside ``games`` (it is stored with the match, and ``games.records`` exports it), above
``games.live`` (it asks live play who may watch) and on ``people`` (blocks and sanctions).
"""
