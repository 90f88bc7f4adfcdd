"""Challenges and rematch offers: the challenged player hears it live and accepts (both are taken
to the new match) or declines; it expires; blocked players cannot challenge; only the two players
see or answer it; the form starts from the last game they played; "Play again" reaches the others."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.engine import Rules
from games.models import Match
from pairing import challenges
from pairing.models import Challenge
from pairing.setups import GRID
from people import services as people
from people.models import Sanction
from play import services as games
from tests.play.services_support import make_user, start_match

pytestmark = pytest.mark.django_db

DUEL = GRID[0]


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, dict[str, Any]]]:
    sent: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr("pairing.push.to_user", lambda user_id, payload: sent.append((user_id, payload)))
    return sent


def test_a_challenge_reaches_its_player_and_accepting_deals_the_match(pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    challenge = challenges.challenge_send(challenger=alice, challenged=bob, setup=DUEL)
    ((to, payload),) = pushed
    assert to == bob.pk and payload["kind"] == "challenge.received" and payload["from"] == "alice"
    assert payload["variant"] == "podkidnoy" and 0 < payload["expires_in"] <= challenges.CHALLENGE_SECONDS
    with pytest.raises(challenges.ChallengeError):
        challenges.challenge_accept(challenge_id=challenge.pk, user=alice)  # not hers to accept
    match = challenges.challenge_accept(challenge_id=challenge.pk, user=bob).matches.get()
    assert {p.user_id for p in match.players.all()} == {alice.pk, bob.pk}
    started = [(u, p["url"]) for u, p in pushed if p["kind"] == "match.started"]
    assert sorted(started) == sorted(
        [(alice.pk, f"/play/match/{match.pk}/"), (bob.pk, f"/play/match/{match.pk}/")]
    )
    with pytest.raises(challenges.ChallengeError):
        challenges.challenge_accept(challenge_id=challenge.pk, user=bob)  # twice: one table
    assert Match.objects.count() == 1


def test_declined_cancelled_and_expired_challenges_cannot_be_accepted(pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    declined = challenges.challenge_send(challenger=alice, challenged=bob, setup=DUEL)
    challenges.challenge_decline(challenge_id=declined.pk, user=bob)
    assert any(u == alice.pk and p["kind"] == "challenge.declined" for u, p in pushed)
    late = challenges.challenge_send(challenger=alice, challenged=bob, setup=DUEL)
    Challenge.objects.filter(pk=late.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert challenges.challenges_expire() == 1
    for challenge in (declined, late):
        with pytest.raises(challenges.ChallengeError):
            challenges.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert not Match.objects.exists()


def test_blocked_players_cannot_challenge_each_other_either_way() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    people.block(bob, alice)
    for a, b in ((alice, bob), (bob, alice)):
        with pytest.raises(challenges.ChallengeError):
            challenges.challenge_send(challenger=a, challenged=b, setup=DUEL)
    assert not Challenge.objects.exists()


def test_a_block_after_the_challenge_stops_its_acceptance(pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    challenge = challenges.challenge_send(challenger=alice, challenged=bob, setup=DUEL)
    people.block(alice, bob)
    with pytest.raises(challenges.ChallengeError):
        challenges.challenge_accept(challenge_id=challenge.pk, user=bob)


def test_oneself_more_than_two_and_too_many_pending_are_refused(pushed: list[Any]) -> None:
    alice = make_user("alice")
    with pytest.raises(challenges.ChallengeError):
        challenges.challenge_send(challenger=alice, challenged=alice, setup=DUEL)
    with pytest.raises(challenges.ChallengeError):
        challenges.challenge_send(challenger=alice, challenged=make_user("bob"), setup=GRID[5])
    for n in range(challenges.MAX_PENDING):
        challenges.challenge_send(challenger=alice, challenged=make_user(f"x{n}"), setup=DUEL)
    with pytest.raises(challenges.ChallengeError):
        challenges.challenge_send(challenger=alice, challenged=make_user("one-more"), setup=DUEL)


def test_the_form_starts_from_the_last_game_and_only_the_two_see_the_challenge(pushed: list[Any]) -> None:
    alice, bob, eve = make_user("alice"), make_user("bob"), make_user("eve")
    start_match(humans=[alice, bob], rules=Rules.for_variant("perevodnoy", deck=24), turn_seconds=60)
    client = Client()
    client.force_login(alice)
    page = client.get(f"/pair/challenge/{bob.pk}/")
    assert page.status_code == 200
    form = page.context["form"]
    assert form.initial == {"variant": "perevodnoy", "deck": 24, "turn_seconds": 60, "rated": False}
    response = client.post(
        f"/pair/challenge/{bob.pk}/", {"variant": "perevodnoy", "deck": "24", "turn_seconds": "60"}
    )
    challenge = Challenge.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/pair/challenges/{challenge.pk}/"
    stranger = Client()
    stranger.force_login(eve)
    assert stranger.get(f"/pair/challenges/{challenge.pk}/").status_code == 404
    assert stranger.post(f"/pair/challenges/{challenge.pk}/accept/").status_code == 302
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.PENDING
    bobs = Client()
    bobs.force_login(bob)
    response = bobs.post(f"/pair/challenges/{challenge.pk}/accept/")
    match = Match.objects.get(table__in=Challenge.objects.values("table"))
    assert response["Location"] == f"/play/match/{match.pk}/"


def test_play_again_reaches_the_others_and_the_last_agreement_takes_everyone(pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(humans=[alice, bob])
    games.match_resign(match_id=match.pk, user=alice)
    assert games.play_again(match_id=match.pk, user=alice) is None
    assert [(u, p["kind"], p["from"]) for u, p in pushed] == [(bob.pk, "rematch.offered", "alice")]
    new_match = games.play_again(match_id=match.pk, user=bob)
    assert new_match is not None
    assert sorted(u for u, p in pushed if p["kind"] == "match.started") == sorted([alice.pk, bob.pk])


def test_alert_settings_are_saved_per_player() -> None:
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    assert b'"sound": false' in client.get("/").content
    response = client.post("/pair/alerts/", {"sound": "on"})
    assert response.status_code == 302
    page = client.get("/")
    assert b'"sound": true' in page.content and b'"browser": false' in page.content


def test_those_who_agreed_may_fill_the_silent_seats_with_bots_after_a_moment(pushed: list[Any]) -> None:
    from pairing import rematch

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = start_match(humans=[alice, bob, carol], rules=Rules(players=3))
    games.match_resign(match_id=match.pk, user=carol)
    games.match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert not match.is_active
    with pytest.raises(games.GameError):
        rematch.again_with_bots(match_id=match.pk, user=alice, level="easy")  # she has not agreed
    games.play_again(match_id=match.pk, user=alice)
    games.play_again(match_id=match.pk, user=bob)
    with pytest.raises(games.GameError):
        rematch.again_with_bots(match_id=match.pk, user=alice, level="easy")  # too soon for carol
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(seconds=60))
    with pytest.raises(games.GameError):
        rematch.again_with_bots(match_id=match.pk, user=carol, level="easy")  # carol did not agree
    new_match = rematch.again_with_bots(match_id=match.pk, user=alice, level="easy")
    seated = {p.user_id: p.user.is_bot for p in new_match.players.select_related("user")}
    assert alice.pk in seated and bob.pk in seated and carol.pk not in seated
    assert sum(seated.values()) == 1 and new_match.number == 2
    assert sorted(u for u, p in pushed if p["kind"] == "match.started") == sorted([alice.pk, bob.pk])


def test_a_challenge_link_beside_other_players_names_only() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    client = Client()
    client.force_login(alice)
    assert f'href="/pair/challenge/{bob.pk}/"'.encode() in client.get(f"/players/{bob.pk}/").content
    assert b"/pair/challenge/" not in client.get(f"/players/{alice.pk}/").content
    assert b"/pair/challenge/" not in Client().get(f"/players/{bob.pk}/").content


def test_a_page_opened_after_the_push_still_shows_the_challenge(pushed: list[Any]) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    challenge = challenges.challenge_send(challenger=alice, challenged=bob, setup=DUEL)
    client = Client()
    client.force_login(bob)
    page = client.get("/rules/").content.decode()
    assert f'"id": {challenge.pk}' in page and '"kind": "challenge.received"' in page
    client.force_login(alice)
    assert (
        '<script id="pairing-incoming" type="application/json">[]</script>'
        in client.get("/rules/").content.decode()
    )


def test_a_player_barred_from_rated_play_cannot_send_a_rated_challenge_but_may_send_a_casual_one(
    pushed: list[Any],
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    Sanction.objects.create(user=alice, kind=Sanction.Kind.RATED_BAR)
    rated = GRID[1]
    assert rated.rated and rated.players == 2
    with pytest.raises(challenges.ChallengeError, match=r"barred from rated play.*casual challenge"):
        challenges.challenge_send(challenger=alice, challenged=bob, setup=rated)
    assert not Challenge.objects.exists() and not pushed  # bob never heard of it
    assert not challenges.challenge_send(challenger=alice, challenged=bob, setup=DUEL).rated


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "You are barred from rated play for now. You may send a casual challenge."),
        ("ru", "Вам пока запрещена рейтинговая игра. Вы можете отправить вызов без рейтинга."),
    ],
)
def test_the_challenge_form_says_why_a_barred_players_rated_challenge_is_refused(
    pushed: list[Any], language: str, words: str
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    Sanction.objects.create(user=alice, kind=Sanction.Kind.RATED_BAR)
    client = Client(headers={"accept-language": language})
    client.force_login(alice)
    response = client.post(
        f"/pair/challenge/{bob.pk}/",
        {"variant": "podkidnoy", "deck": "36", "turn_seconds": "30", "rated": "on"},
        follow=True,
    )
    assert response.status_code == 200 and words in response.content.decode()
    assert not Challenge.objects.exists()
