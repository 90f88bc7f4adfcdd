"""Live play: tables, seats and matches as people play them, from the lobby to the last card.

``services`` writes (a package by sub-domain; every move goes through its turn core),
``selectors`` read, ``loaded.LoadedMatch`` is the one shape a match is read in (by the page, the
socket push, the POST fallback and the services' lock), ``presenters`` turn it into one viewer's
context, ``fragments`` render that for the page and the socket, ``broadcast`` holds the
channel-layer groups and events, and ``consumers`` and ``views`` are the doors the browser
knocks on.
"""
