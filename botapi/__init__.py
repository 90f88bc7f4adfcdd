"""The Bot API: outside programs play the club's games through a bot account and a token
(floor 4, above ``games`` and ``people``; modelled on Lichess's Bot API, see ``docs/bot-api.md``)."""
