"""``play.access``: who may watch, see a table, sit and chat, each rule on its own (the pages and
sockets that ask it are tested in ``test_visibility``, ``test_views`` and ``test_consumers``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import User
from games.engine import Rules
from play import access, services

from .services_support import make_user, start_match

pytestmark = pytest.mark.django_db


def test_a_private_table_is_for_its_creator_its_players_and_its_invitees() -> None:
    host, guest, stranger = make_user("host"), make_user("guest"), make_user("stranger")
    table = services.table_create(creator=host, rules=Rules.for_variant("podkidnoy"), private=True)
    assert access.may_see_table(table, host, "")
    assert not access.may_see_table(table, stranger, "")
    assert not access.may_see_table(table, AnonymousUser(), "")
    assert access.may_see_table(table, AnonymousUser(), table.invite_token)
    assert not access.may_sit(table, guest, None) and not access.may_sit(table, guest, "wrong")
    assert access.may_sit(table, guest, table.invite_token) and access.may_sit(table, host, None)
    services.table_join(table_id=table.pk, user=guest, invite_token=table.invite_token)
    assert access.may_see_table(table, guest, "")


def test_anyone_watches_a_public_match_and_only_its_people_a_private_one() -> None:
    olga, ivan, stranger = make_user("olga"), make_user("ivan"), make_user("stranger")
    match = start_match(humans=[olga, ivan])
    players = list(match.players.all())
    assert access.may_watch(match, players, AnonymousUser()) and access.may_watch(match, players, stranger)
    match.table.private = True
    assert access.may_watch(match, players, ivan)
    assert not access.may_watch(match, players, stranger)
    assert not access.may_watch(match, players, AnonymousUser())


def test_people_and_program_bots_chat_the_clubs_bots_and_anonymous_readers_do_not() -> None:
    assert access.may_chat(make_user("olga"))
    assert not access.may_chat(AnonymousUser())
    assert not access.may_chat(User(username="bot", is_bot=True, bot_level=User.BotLevel.EASY))
    assert access.may_chat(User(username="program", is_bot=True, bot_level=User.BotLevel.PROGRAM))
