"""The Bot API: only a fresh account becomes a bot account; tokens are stored hashed, scoped and
revocable; every endpoint refuses without a valid token of a bot account, in JSON, changing
nothing; a move goes through the same service as the sockets (same version check, same words);
the game's frame is exactly the seat's own view; the club's workers never move for a program's
seat except as its autopilot."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import AsyncClient, Client
from django.urls import reverse

from accounts.models import User
from botapi import services
from botapi.models import ApiToken
from botapi.payloads import challenges_to, game_payload
from botapi.tokens import digest, new_raw_token
from games.engine import Rules
from games.models import Match, Move
from pairing import challenges
from pairing.setups import Setup
from play.models import ChatLine
from play.services import bot_turn, turn
from tests.play.services_support import make_user, match_state, start_match
from tests.tournaments.support import tournament_settings
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def program(name: str = "robo") -> tuple[User, str]:
    user = make_user(name)
    services.account_upgrade(user)
    user.refresh_from_db()
    _token, raw = services.token_create(user, "test")
    return user, raw


def call(client: Client, method: str, name: str, raw: str | None, payload: Any = None, **kwargs: Any) -> Any:
    headers = {"Authorization": f"Bearer {raw}"} if raw else {}
    url = reverse(f"botapi:{name}", kwargs=kwargs or None)
    if method == "GET":
        return client.get(url, headers=headers)
    return client.post(url, data=json.dumps(payload or {}), content_type="application/json", headers=headers)


def test_only_a_fresh_account_becomes_a_bot_account() -> None:
    played = make_user("anna")
    start_match(humans=[played], bot_level="random")
    with pytest.raises(services.ApiRefused):
        services.account_upgrade(played)
    fresh = make_user("robo")
    services.account_upgrade(fresh)
    fresh.refresh_from_db()
    assert fresh.is_bot and fresh.is_program and fresh.bot_level == User.BotLevel.PROGRAM


def test_a_token_is_stored_hashed_shown_once_and_revocable(client: Client) -> None:
    user, raw = program()
    token = ApiToken.objects.get(user=user)
    assert (
        token.digest == digest(raw)
        and raw not in (token.digest, token.prefix)
        and raw.startswith(token.prefix)
    )
    assert call(client, "GET", "account", raw).json() == {"id": user.pk, "name": "robo", "bot": True}
    services.token_revoke(user, token.pk)
    assert call(client, "GET", "account", raw).status_code == 401
    with pytest.raises(services.ApiRefused):
        services.token_revoke(user, token.pk)


@pytest.mark.parametrize("header", ["", "Bearer", "Bearer nonsense", "Basic abc", "Bearer " + "x" * 500])
def test_no_valid_token_no_answer(client: Client, header: str) -> None:
    response = client.get(reverse("botapi:account"), headers={"Authorization": header} if header else {})
    assert response.status_code == 401 and "token" in response.json()["error"]


def test_a_human_account_gets_no_token_on_the_page_or_from_the_service(client: Client) -> None:
    human = make_user("anna")
    with pytest.raises(services.ApiRefused, match="Only a bot account has API tokens"):
        services.token_create(human, "mine")
    client.force_login(human)
    page = reverse("botapi:account_page")
    assert 'name="step" value="create"' not in client.get(page).content.decode()
    refused = client.post(page, {"step": "create", "name": "mine"}, follow=True).content.decode()
    assert "Only a bot account has API tokens" in refused
    client.cookies["django_language"] = "ru"
    russian = client.post(page, {"step": "create", "name": "mine"}, follow=True).content.decode()
    assert "API-токены есть только у бот-аккаунта" in russian
    assert not ApiToken.objects.exists()


def test_a_human_accounts_token_from_before_cannot_play(client: Client) -> None:
    human = make_user("anna")
    raw = new_raw_token()  # made when human accounts could still have tokens
    ApiToken.objects.create(user=human, name="old", digest=digest(raw), prefix=raw[:12])
    response = call(client, "POST", "challenge_ai", raw, {"level": "easy"})
    assert response.status_code == 403 and response.json()["code"] == "not_bot"
    assert not Match.objects.exists()


def test_a_program_plays_a_game_against_the_club_bot_through_the_api(client: Client) -> None:
    user, raw = program()
    started = call(client, "POST", "challenge_ai", raw, {"level": "random", "variant": "podkidnoy"})
    assert started.status_code == 200, started.content
    match = Match.objects.get(pk=started.json()["game"]["id"])
    for _ in range(400):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        frame = game_payload(match_id=match.pk, user=user)
        assert frame is not None
        if not frame["view"]["legal"]:  # the club's bot is to move, as the worker would
            for seat in match_state(match).awaiting():
                bot_turn(match_id=match.pk, version=match.version, seat=seat)
            continue
        answer = call(
            client,
            "POST",
            "move",
            raw,
            {"action": frame["view"]["legal"][0], "version": frame["version"]},
            match_id=match.pk,
        )
        assert answer.status_code == 200, answer.content
    assert match.status == Match.Status.FINISHED
    seat = match.players.get(user=user).seat
    assert Move.objects.filter(match=match, seat=seat, by=Move.By.PLAYER).exists()


def test_refused_moves_change_nothing_and_say_why(client: Client) -> None:
    user, raw = program()
    match = services.challenge_ai(
        user, variant="podkidnoy", players=2, level="random", rated=False, turn_seconds=30
    )
    match.refresh_from_db()
    version = match.version
    cases = [
        ({"action": "cover 2X>9Q", "version": version}, 400),
        ({"action": "take"}, 400),
        ({"version": version}, 400),
        ({"action": ["list"], "version": version}, 400),
        ({"action": "take", "version": "nine"}, 400),
    ]
    for payload, status in cases:
        response = call(client, "POST", "move", raw, payload, match_id=match.pk)
        assert response.status_code == status and response.json()["error"], payload
    stale = call(client, "POST", "move", raw, {"action": "take", "version": version + 7}, match_id=match.pk)
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    assert (
        call(client, "POST", "move", raw, {"action": "take", "version": 0}, match_id=999999).status_code
        == 404
    )
    match.refresh_from_db()
    assert match.version == version


def test_a_move_on_another_players_game_is_told_there_is_no_such_game(client: Client) -> None:
    """A stranger learns nothing from a move: another's game, running or over, answers the same 404
    as a game that does not exist (it once said "This game is over.")."""
    owner, _owner_raw = program("owner")
    _stranger, raw = program("stranger")
    match = services.challenge_ai(
        owner, variant="podkidnoy", players=2, level="random", rated=False, turn_seconds=30
    )
    match.refresh_from_db()
    move = {"action": "take", "version": match.version}
    absent = call(client, "POST", "move", raw, move, match_id=999999)
    running = call(client, "POST", "move", raw, move, match_id=match.pk)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    over = call(client, "POST", "move", raw, move, match_id=match.pk)
    assert [r.status_code for r in (absent, running, over)] == [404, 404, 404]
    assert running.json() == over.json() == absent.json()
    assert Match.objects.get(pk=match.pk).version == match.version


def test_the_frame_is_the_seats_own_view_and_nothing_more() -> None:
    user, _raw = program()
    anna = make_user("anna")
    match = start_match(humans=[user, anna], rules=Rules())
    frame = game_payload(match_id=match.pk, user=user)
    assert frame is not None
    state = match_state(match)
    assert frame["view"] == state.view(frame["seat"]).to_dict()
    assert frame["view"]["hands"] is None and frame["view"]["stock"] is None
    anna_hand = state.view(1).hand
    assert not any(card in json.dumps(frame["view"]["hand"]) for card in anna_hand)
    assert game_payload(match_id=match.pk, user=make_user("stranger")) is None


def test_the_worker_never_moves_for_a_program_unless_on_autopilot() -> None:
    user, _raw = program()
    match = start_match(humans=[user, make_user("anna")])
    player = match.players.get(user=user)
    assert not turn.is_bot_seat(player)
    player.autopilot = True
    assert turn.is_bot_seat(player)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_game_stream_of_a_finished_game_is_one_frame() -> None:
    from asgiref.sync import sync_to_async

    user, raw = await sync_to_async(program)()
    match = await sync_to_async(services.challenge_ai)(
        user, variant="podkidnoy", players=2, level="random", rated=False, turn_seconds=30
    )
    await sync_to_async(Match.objects.filter(pk=match.pk).update)(status=Match.Status.ABORTED)
    response = await AsyncClient().get(
        reverse("botapi:stream_game", args=[match.pk]), headers={"Authorization": f"Bearer {raw}"}
    )
    assert response["Content-Type"] == "application/x-ndjson"
    lines = [chunk async for chunk in response.streaming_content]  # type: ignore[attr-defined]
    frames = [json.loads(line) for line in b"".join(lines).splitlines() if line.strip()]
    assert [f["type"] for f in frames] == ["gameFull"] and frames[0]["status"] == "aborted"
    missing = await AsyncClient().get(
        reverse("botapi:stream_game", args=[999999]), headers={"Authorization": f"Bearer {raw}"}
    )
    assert missing.status_code == 404


def test_a_program_cannot_act_in_anothers_game(client: Client) -> None:
    owner, _raw = program("robo")
    _other, other_raw = program("intruder")
    match = services.challenge_ai(
        owner, variant="podkidnoy", players=2, level="random", rated=False, turn_seconds=30
    )
    match.refresh_from_db()
    version = match.version
    for name, status in (("move", 404), ("resign", 400)):
        response = call(
            client, "POST", name, other_raw, {"action": "take", "version": version}, match_id=match.pk
        )
        assert response.status_code == status and response.json()["error"]
    match.refresh_from_db()
    assert match.version == version and match.status == Match.Status.ACTIVE


def test_the_bot_account_page_upgrades_and_makes_tokens(client: Client) -> None:
    user = make_user("robo")
    client.force_login(user)
    page = reverse("botapi:account_page")
    assert "Make this a bot account" in client.get(page).content.decode()
    client.post(page, {"step": "upgrade"})
    user.refresh_from_db()
    assert user.is_program
    shown = client.post(page, {"step": "create", "name": "  my   engine "}).content.decode()
    token = ApiToken.objects.get(user=user)
    assert token.name == "my engine" and token.prefix in shown and 'id="new-token"' in shown
    assert 'id="new-token"' not in client.get(page).content.decode(), "the token is shown once"
    client.post(page, {"step": "revoke", "token": "not a number"})
    client.post(page, {"step": "revoke", "token": str(token.pk)})
    token.refresh_from_db()
    assert not token.is_active


def test_the_docs_page_in_both_languages(client: Client) -> None:
    assert "Bearer" in client.get(reverse("botapi:docs")).content.decode()
    client.cookies["django_language"] = "ru"
    assert (
        "Бот-аккаунт"
        in client.get(reverse("botapi:docs"), headers={"Accept-Language": "ru"}).content.decode()
    )


def test_a_program_registers_only_where_the_organiser_allows_bots(client: Client) -> None:
    organiser = make_user("olga")
    robot, raw = program()
    closed = tournaments.tournament_create(
        organiser=organiser, settings=tournament_settings(bots_allowed=False)
    )
    allowing = tournaments.tournament_create(organiser=organiser, settings=tournament_settings())
    for tournament in (closed, allowing):
        tournaments.registration_open(tournament_id=tournament.pk, user=organiser)
    refused = call(client, "POST", "tournament_join", raw, tournament_id=closed.pk)
    assert refused.status_code == 400 and "bots" in refused.json()["error"]
    assert call(client, "POST", "tournament_join", raw, tournament_id=allowing.pk).status_code == 200
    assert allowing.entries.filter(player=robot).exists() and not closed.entries.exists()
    assert call(client, "POST", "tournament_join", raw, tournament_id=999999).status_code == 400
    assert call(client, "POST", "tournament_withdraw", raw, tournament_id=allowing.pk).status_code == 200


def test_a_program_sees_a_challenge_and_accepts_or_declines_it(client: Client) -> None:
    robot, raw = program()
    alice = make_user("alice")
    duel = Setup(variant="podkidnoy", players=2, teams=False, deck=36, turn_seconds=30, rated=False)
    first = challenges.challenge_send(challenger=alice, challenged=robot, setup=duel)
    assert list(challenges_to(robot)) == [first.pk] and challenges_to(robot)[first.pk]["from"] == "alice"
    accepted = call(client, "POST", "challenge_accept", raw, challenge_id=first.pk)
    assert accepted.status_code == 200
    match = Match.objects.get(pk=accepted.json()["game"]["id"])
    assert set(match.players.values_list("user_id", flat=True)) == {alice.pk, robot.pk}
    assert challenges_to(robot) == {}
    second = challenges.challenge_send(challenger=make_user("bob"), challenged=robot, setup=duel)
    assert call(client, "POST", "challenge_decline", raw, challenge_id=second.pk).status_code == 200
    again = call(client, "POST", "challenge_accept", raw, challenge_id=second.pk)
    assert again.status_code == 400 and again.json()["error"]


def test_a_program_says_quick_phrases_only(client: Client) -> None:
    robot, raw = program()
    match = start_match(humans=[robot, make_user("anna")])
    assert call(client, "POST", "chat", raw, {"phrase": "gl"}, match_id=match.pk).status_code == 200
    assert ChatLine.objects.get(match=match, author=robot).phrase == "gl"
    for payload in ({"phrase": "<script>"}, {"text": "hello"}, {"phrase": 7}):
        response = call(client, "POST", "chat", raw, payload, match_id=match.pk)
        assert response.status_code == 400 and response.json()["error"], payload
    assert ChatLine.objects.filter(match=match).count() == 1


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_api_page_turns_heading_anchors_into_ids(client: Client, language: str) -> None:
    """A heading written "## Account {#account}" is a heading with id="account", never that text."""
    client.cookies["django_language"] = language
    page = client.get(reverse("botapi:docs")).content.decode()
    assert "{#" not in page
    assert 'id="account"' in page and 'id="endpoints"' in page
    assert 'href="/account/bot/"' in page  # where a bot account is made: a link, not text
