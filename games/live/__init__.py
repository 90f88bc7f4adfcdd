"""Live play: tables, seats and matches as people play them, from the lobby to the last card.

``services`` writes (every move goes through one of its functions), ``selectors`` reads,
``presenters`` turn a loaded match into one viewer's context, ``fragments`` render it for the
page and the socket, ``consumers`` and ``views`` are the doors the browser knocks on.
"""
