"""Live play: tables, seats and matches as people play them, from the lobby to the last card.

``services`` writes (a package by sub-domain; every move goes through its turn core),
``selectors`` read, ``loaded.LoadedMatch`` is the one shape a match is read in (by the page, the
socket push, the POST fallback and the services' lock), ``presenters`` turn it into one viewer's
context, ``fragments`` render that for the page and the socket, ``broadcast`` holds the
channel-layer groups and events, and ``consumers`` and ``views`` are the doors the browser
knocks on. ``access`` says who may watch, sit and chat, for all of them; ``chat`` is the table
chat (its models are this app's ``models``); ``tasks`` are the live tasks (bot turns, beat's
clock). Live play stands above ``games`` and ``ratings``: it reads ratings directly, and a rated
match is rated as it finishes.
"""
