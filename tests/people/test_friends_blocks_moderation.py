"""Friends, blocks and moderation through the site: the follow and block buttons (POST, htmx),
the friends page with presence and the match to watch, a blocked player refused a seat, the staff's
queue and logged actions (a mute the user is told about, a bar enforced at rated tables), and
the chat in a finished match's replay and JSON export."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.engine import Rules
from games.models import Match
from people import selectors as people_selectors
from people import services as people_services
from people.models import Follow, Sanction
from play import services
from play.chat import moderation
from play.chat import services as chat_services
from play.models import ChatLine, ChatReport, ModerationAction
from play.services.errors import TableError
from tests.play.services_support import make_user, play_out, start_match
from tests.tournaments.support import open_with_bots, started_with_player
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def client_of(user: User) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_the_follow_and_block_buttons_answer_htmx_with_the_buttons() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    client = client_of(alice)
    page = client.get(reverse("club:profile", args=[bob.pk])).content.decode()
    assert 'data-tie="follow"' in page and 'data-tie="block"' in page
    answer = client.post(reverse("people:tie", args=[bob.pk, "follow"]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and 'data-tie="unfollow"' in answer.content.decode()
    assert people_selectors.followed_ids(alice.pk) == {bob.pk}
    answer = client.post(reverse("people:tie", args=[bob.pk, "block"]), HTTP_HX_REQUEST="true")
    assert 'data-tie="unblock"' in answer.content.decode() and not Follow.objects.exists()
    refused = client.post(reverse("people:tie", args=[bob.pk, "follow"]), HTTP_HX_REQUEST="true")
    assert "blocked" in refused.content.decode() and not Follow.objects.exists()
    assert client.post(reverse("people:tie", args=[bob.pk, "unblock"])).status_code == 302
    assert people_selectors.blocked_ids(alice.pk) == set()


def test_a_blocked_players_page_offers_no_challenge() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    client = client_of(alice)
    challenge = reverse("pairing:challenge_new", args=[bob.pk])
    assert challenge in client.get(reverse("club:profile", args=[bob.pk])).content.decode()
    people_services.block(alice, bob)
    assert challenge not in client.get(reverse("club:profile", args=[bob.pk])).content.decode()


def test_the_buttons_refuse_oneself_bots_unknown_verbs_gets_and_anonymous() -> None:
    alice = make_user("alice")
    client = client_of(alice)
    assert (
        "yourself"
        in client.post(
            reverse("people:tie", args=[alice.pk, "follow"]), HTTP_HX_REQUEST="true"
        ).content.decode()
    )
    assert client.post(f"/players/{alice.pk}/befriend/").status_code == 404
    assert client.get(reverse("people:tie", args=[alice.pk, "follow"])).status_code == 405
    bob = make_user("bob")
    assert Client().post(reverse("people:tie", args=[bob.pk, "block"])).status_code == 302  # to log in
    assert not people_selectors.blocked_ids(bob.pk)


def test_the_friends_page_shows_who_is_online_and_who_plays_with_the_match_to_watch() -> None:
    me, onl, player, other, away = (make_user(n) for n in ("me", "onl", "player", "other", "away"))
    for friend in (onl, player, away):
        people_services.follow(me, friend)
    people_services.presence_open(onl.pk, "channel-onl")
    people_services.presence_open(player.pk, "channel-player")
    match = start_match(humans=[player, other])
    page = client_of(me).get(reverse("club:friends")).content.decode()
    assert page.index(">player<") < page.index(">onl<") < page.index(">away<")  # playing, online, away
    assert f'href="{reverse("games:match", args=[match.pk])}"' in page
    assert f'class="friend friend--online" data-user="{onl.pk}"' in page
    assert f'class="friend friend--away" data-user="{away.pk}"' in page
    assert ">other<" not in page  # not followed
    panel = client_of(me).get(reverse("club:friends_panel")).content.decode()
    assert 'id="friends-panel"' in panel and f'data-user="{player.pk}"' in panel


def test_a_blocked_player_cannot_sit_at_the_blockers_open_table() -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    people_services.block(alice, bob)
    table = services.table_create(creator=alice, rules=Rules(players=3))
    with pytest.raises(TableError, match="blocked"):
        services.table_join(table_id=table.pk, user=bob)
    services.table_join(table_id=table.pk, user=carol)
    assert sorted(table.seats.values_list("user__username", flat=True)) == ["alice", "carol"]
    answer = client_of(bob).post(reverse("games:seat_take", args=[table.pk]), follow=True)
    assert "blocked" in answer.content.decode()
    assert table.seats.count() == 2


def test_staff_mute_from_the_queue_is_logged_told_and_settles_the_report() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    staff = User.objects.create_user(
        username="stella", display_name="stella", is_staff=True, is_superuser=True
    )
    match = start_match(humans=[alice, bob])
    line = chat_services.chat_say(match_id=match.pk, user=alice, phrase="oops")
    report = chat_services.chat_report(line_id=line.pk, user=bob)
    admin = client_of(staff)
    queue = admin.get(reverse("admin:play_chatreport_changelist")).content.decode()
    assert "Oops!" in queue and "bob" in queue
    page = admin.get(reverse("admin:play_chatreport_change", args=[report.pk])).content.decode()
    assert "report-line" in page and "Mute for a day" in page and f"#{match.pk}" in page
    add = reverse("admin:play_moderationaction_add")
    no_reason = admin.post(
        add, {"user": alice.pk, "kind": "mute", "hours": 24, "reason": " ", "report": report.pk}
    )
    assert no_reason.status_code == 200 and not ModerationAction.objects.exists()
    done = admin.post(
        add, {"user": alice.pk, "kind": "mute", "hours": 24, "reason": "insults", "report": report.pk}
    )
    assert done.status_code == 302
    action = ModerationAction.objects.get()
    assert (action.staff, action.user, action.reason, action.report) == (staff, alice, "insults", report)
    report.refresh_from_db()
    assert report.settled_at is not None
    until = people_selectors.muted_until(alice.pk)
    assert until is not None and until > timezone.now() + timedelta(hours=23)
    with pytest.raises(chat_services.ChatError, match="muted in chat until"):
        chat_services.chat_say(match_id=match.pk, user=alice, phrase="gl")
    assert admin.post(reverse("admin:play_moderationaction_change", args=[action.pk]), {}).status_code == 403
    moderation.act(staff=staff, user=alice, kind="unmute", reason="served")
    assert people_selectors.muted_until(alice.pk) is None
    assert ModerationAction.objects.count() == 2


def test_a_player_barred_from_rated_play_neither_opens_joins_nor_is_dealt_a_rated_game() -> None:
    alice, bob, staff = make_user("alice"), make_user("bob"), make_user("stella")
    staff.is_staff = True
    rated = services.table_create(creator=alice, rules=Rules(), rated=True)
    moderation.act(staff=staff, user=bob, kind="bar", reason="sandbagging")
    with pytest.raises(TableError, match="barred"):
        services.table_join(table_id=rated.pk, user=bob)
    with pytest.raises(TableError, match="barred"):
        services.table_create(creator=bob, rules=Rules(), rated=True)
    casual = services.table_create(creator=bob, rules=Rules())  # casual play goes on
    services.table_join(table_id=casual.pk, user=alice)
    assert people_selectors.rated_barred([bob.pk]) == {bob.pk}
    moderation.act(staff=staff, user=bob, kind="unbar", reason="appeal upheld")
    services.table_join(table_id=rated.pk, user=bob)
    assert Sanction.objects.filter(lifted_at__isnull=False).count() == 1


def test_moderation_needs_staff_and_a_reason() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    with pytest.raises(chat_services.ChatError):
        moderation.act(
            staff=bob, user=alice, kind="mute", reason="x", until=timezone.now() + timedelta(hours=1)
        )
    bob.is_staff = True
    with pytest.raises(chat_services.ChatError):
        moderation.act(staff=bob, user=alice, kind="bar", reason="   ")
    assert not ModerationAction.objects.exists() and not Sanction.objects.exists()


def test_a_finished_matchs_replay_and_export_carry_its_chat() -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = start_match(humans=[alice, bob])
    chat_services.chat_say(match_id=match.pk, user=alice, phrase="gl")
    chat_services.chat_say(match_id=match.pk, user=carol, phrase="wow")
    play_out(match)
    exported = client_of(carol).get(reverse("match_export", args=[match.pk])).json()
    assert [(line["room"], line["name"], line.get("phrase")) for line in exported["chat"]] == [
        ("players", "alice", "gl"),
        ("spectators", "carol", "wow"),
    ]
    page = client_of(carol).get(reverse("match_record", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    text = page.content.decode()
    assert 'id="replay-chat"' in text and "Удачи!" in text and "😮" in text
    assert ChatLine.objects.count() == 2 and not ChatReport.objects.exists()


def test_an_invitation_seats_players_who_blocked_each_other_and_tournament_chat_is_quick_only() -> None:
    """A private table's link (and a tournament's table) is the creator's choice: the block holds
    at open tables and in chat, not against an invitation."""
    alice, bob = make_user("alice"), make_user("bob")
    people_services.block(alice, bob)
    table = services.table_create(creator=alice, rules=Rules(), private=True)
    services.table_join(table_id=table.pk, user=bob, invite_token=table.invite_token)
    assert table.seats.count() == 2


def test_tournament_chat_is_quick_phrases_only_and_a_barred_player_stays_out_of_rated_ones() -> None:
    organiser, staff = make_user("olga"), make_user("stella")
    staff.is_staff = True
    tournament, player = started_with_player(organiser, 1, "pat")
    match = Match.objects.get(table__tournament_pairing__tournament=tournament)
    User.objects.filter(pk=player.pk).update(chat_free_text=True)
    player.refresh_from_db()
    with pytest.raises(chat_services.ChatError, match="Only quick phrases"):
        chat_services.chat_say(match_id=match.pk, user=player, text="hello")
    assert chat_services.chat_say(match_id=match.pk, user=player, phrase="gl").phrase == "gl"
    rated = open_with_bots(organiser, 1, rated=True, rules=Rules().to_dict())
    barred = make_user("barry")
    moderation.act(staff=staff, user=barred, kind="bar", reason="farming")
    with pytest.raises(tournament_services.TournamentError, match="barred"):
        tournament_services.entry_register(tournament_id=rated.pk, user=barred)


def test_a_mute_is_told_at_once_on_the_users_personal_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    alice, staff = make_user("alice"), make_user("stella")
    staff.is_staff = True
    sent: list[tuple[str, dict[str, object]]] = []
    monkeypatch.setattr(
        "play.chat.moderation.group_send_on_commit", lambda group, event: sent.append((group, event))
    )
    until = timezone.now() + timedelta(hours=3)
    moderation.act(staff=staff, user=alice, kind="mute", reason="spam", until=until)
    assert sent == [
        (
            f"user.{alice.pk}",
            {"type": "personal.event", "payload": {"kind": "chat.muted", "until": until.isoformat()}},
        )
    ]
