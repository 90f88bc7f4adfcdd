"""The Bot API's endpoints (token only: no session, so no CSRF to forge) and the account page
where a player turns their fresh account into a bot account and manages its tokens.

Every refusal is JSON ``{"error": <message>, "code": <code>}`` with the status it deserves, in the
words the sockets use (the same services refuse). See ``docs/bot-api.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any

import markdown
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from pairing.challenges import ChallengeError, challenge_accept, challenge_decline
from play import ratelimit
from play import selectors as game_selectors
from play.chat.services import ChatError, chat_say
from play.services import GameError, StaleVersion, action_apply, match_resign
from tournaments import services as tournaments

from . import services
from .limits import Lease, LeasedStream, StreamRefused, lease_take
from .models import ApiToken
from .payloads import game_payload
from .streams import event_lines, game_lines
from .tokens import bearer, token_user

NDJSON = "application/x-ndjson"


def refusal(message: str, code: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message, "code": code}, status=status)


def unauthorised() -> JsonResponse:
    return refusal(_("A valid API token is needed (Authorization: Bearer <token>)."), "token", 401)


def not_a_bot() -> JsonResponse:
    return refusal(_("This token's account is not a bot account: upgrade it first."), "not_bot", 403)


def no_game() -> JsonResponse:
    return refusal(_("There is no such game of yours."), "not_found", 404)


def body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object, or its form fields; ``{}`` for anything else."""
    if request.content_type == "application/json":
        try:
            parsed = json.loads(request.body or b"{}")
        except (ValueError, UnicodeDecodeError):
            return {}
        return parsed if isinstance(parsed, dict) else {}
    return request.POST.dict()


def bot_endpoint(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A sync endpoint for bot accounts: the token's user, its rate limit, refusals as JSON."""

    @csrf_exempt
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = token_user(request)
        if user is None:
            return unauthorised()
        if not user.is_program:
            return not_a_bot()
        try:
            ratelimit.check_user(user.pk)
        except ratelimit.OverLimit:
            return refusal(ratelimit.message(), "rate_limited", 429)
        try:
            return view(request, user, *args, **kwargs)
        except StaleVersion as error:
            return refusal(error.message, getattr(error, "code", "stale"), 409)
        except GameError as error:
            return refusal(error.message, getattr(error, "code", "refused"), 400)
        except (services.ApiRefused, tournaments.TournamentError, ChallengeError, ChatError) as error:
            return refusal(error.message, "refused", 400)

    return wrapped


@csrf_exempt
@require_GET
def account(request: HttpRequest) -> HttpResponse:
    user = token_user(request)
    if user is None:
        return unauthorised()
    return JsonResponse({"id": user.pk, "name": str(user.public_name), "bot": user.is_program})


@csrf_exempt
@require_POST
def account_upgrade(request: HttpRequest) -> HttpResponse:
    user = token_user(request)
    if user is None:
        return unauthorised()
    try:
        services.account_upgrade(user)
    except services.ApiRefused as error:
        return refusal(error.message, "refused", 400)
    return JsonResponse({"ok": True, "bot": True})


@require_POST
@bot_endpoint
def game_move(request: HttpRequest, user: User, match_id: int) -> HttpResponse:
    data = body(request)
    action, version = data.get("action"), data.get("version")
    if not isinstance(action, str) or not action.strip() or len(action) > 200:
        return refusal(_('Send the move as "action", in the engine\'s notation.'), "action", 400)
    try:
        expected = int(version) if version is not None else None
    except (TypeError, ValueError):
        expected = None
    if expected is None:
        return refusal(_('Send the version of the game you saw as "version".'), "version", 400)
    if not game_selectors.plays_in(match_id=match_id, user_id=user.pk):
        return no_game()  # the same answer whether the game exists or not
    loaded = action_apply(match_id=match_id, user=user, action_text=action.strip(), expected_version=expected)
    return JsonResponse({"ok": True, "version": loaded.version})


@require_POST
@bot_endpoint
def game_resign(request: HttpRequest, user: User, match_id: int) -> HttpResponse:
    match_resign(match_id=match_id, user=user)
    return JsonResponse({"ok": True})


@require_POST
@bot_endpoint
def game_chat(request: HttpRequest, user: User, match_id: int) -> HttpResponse:
    """Say a quick phrase at the table (its code: ``gl``, ``wp``, ... as on the table's buttons)."""
    phrase = body(request).get("phrase")
    if not isinstance(phrase, str) or not phrase:
        return refusal(_('Send the quick phrase\'s code as "phrase".'), "phrase", 400)
    chat_say(match_id=match_id, user=user, phrase=phrase[:40])
    return JsonResponse({"ok": True})


@require_POST
@bot_endpoint
def challenge_answer(request: HttpRequest, user: User, challenge_id: int, answer: str) -> HttpResponse:
    """Accept (the event stream says ``gameStart`` when the match is dealt: at once, or within
    ``settings.GAMES_DEAL_WAIT_SECONDS`` while the challenger's browser sends its value for the
    deal) or decline."""
    if answer == "accept":
        table = challenge_accept(challenge_id=challenge_id, user=user)
        match = game_selectors.table_current_match(table_id=table.pk)
        game = {"id": match.pk} if match is not None else None
        return JsonResponse({"ok": True, "table": table.pk, "game": game})
    challenge_decline(challenge_id=challenge_id, user=user)
    return JsonResponse({"ok": True})


@require_POST
@bot_endpoint
def challenge_ai(request: HttpRequest, user: User) -> HttpResponse:
    data = body(request)
    try:
        players = int(data.get("players", 2))
        turn_seconds = int(data.get("turn_seconds", 30))
    except (TypeError, ValueError):
        return refusal(_('"players" and "turn_seconds" are whole numbers.'), "options", 400)
    match = services.challenge_ai(
        user,
        variant=str(data.get("variant", "podkidnoy")),
        players=players,
        level=str(data.get("level", "easy")),
        rated=data.get("rated") in (True, "true", "1"),
        turn_seconds=turn_seconds,
    )
    return JsonResponse({"ok": True, "game": {"id": match.pk}})


@require_POST
@bot_endpoint
def tournament_join(request: HttpRequest, user: User, tournament_id: int) -> HttpResponse:
    """Register in a tournament that allows bots (an arena that is running: join it)."""
    tournaments.entry_register(tournament_id=tournament_id, user=user)
    return JsonResponse({"ok": True})


@require_POST
@bot_endpoint
def tournament_withdraw(request: HttpRequest, user: User, tournament_id: int) -> HttpResponse:
    tournaments.entry_withdraw(tournament_id=tournament_id, user=user)
    return JsonResponse({"ok": True})


async def _stream_open(request: HttpRequest, kind: str) -> tuple[User, Lease] | JsonResponse:
    """The token's user and the stream's slots (``botapi.limits``), or the refusal.

    The limits are counted before the token is looked up, so a flood of streams, bogus tokens
    included, never reaches the database; the lookup returns its connection at once."""
    raw = bearer(request)
    if raw is None:
        return unauthorised()
    try:
        lease = await sync_to_async(lease_take)(
            kind=kind, raw_token=raw, address=request.META.get("REMOTE_ADDR", "")
        )
    except StreamRefused as error:
        return refusal(error.message, "too_many_streams", 429)
    try:
        user = await database_sync_to_async(token_user)(request)
    except BaseException:  # the database busy or gone (a 503 then): the slots go back at once
        await sync_to_async(lease.release)()
        raise
    refused = unauthorised() if user is None else None if user.is_program else not_a_bot()
    if refused is not None or user is None:
        await sync_to_async(lease.release)()
        return refused or unauthorised()
    return user, lease


@csrf_exempt
@require_GET
async def stream_event(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    opened = await _stream_open(request, "event")
    if isinstance(opened, JsonResponse):
        return opened
    user, lease = opened
    return StreamingHttpResponse(LeasedStream(event_lines(user=user), lease), content_type=NDJSON)


@csrf_exempt
@require_GET
async def stream_game(request: HttpRequest, match_id: int) -> HttpResponse | StreamingHttpResponse:
    opened = await _stream_open(request, "game")
    if isinstance(opened, JsonResponse):
        return opened
    user, lease = opened
    try:
        found = await database_sync_to_async(game_payload)(match_id=match_id, user=user)
    except BaseException:
        await sync_to_async(lease.release)()
        raise
    if found is None:
        await sync_to_async(lease.release)()
        return no_game()
    return StreamingHttpResponse(
        LeasedStream(game_lines(match_id=match_id, user=user), lease), content_type=NDJSON
    )


@login_required
def bot_account(request: HttpRequest) -> HttpResponse:
    """The player's bot account page: upgrade a fresh account, make and revoke tokens."""
    user: User = request.user  # type: ignore[assignment]
    new_token = None
    if request.method == "POST":
        step = request.POST.get("step")
        try:
            if step == "upgrade":
                services.account_upgrade(user)
                messages.success(request, _("This is now a bot account."))
                return redirect("botapi:account_page")
            if step == "create":
                _token, new_token = services.token_create(user, request.POST.get("name", ""))
            elif step == "revoke":
                services.token_revoke(user, int(request.POST.get("token", "0") or 0))
                messages.success(request, _("The token is revoked."))
                return redirect("botapi:account_page")
        except (services.ApiRefused, ValueError) as error:
            messages.error(request, getattr(error, "message", _("This is not possible.")))
            return redirect("botapi:account_page")
    user.refresh_from_db()
    context = {
        "tokens": ApiToken.objects.filter(user=user).order_by("-created"),
        "new_token": new_token,
        "may_upgrade": not user.is_bot,
        "is_program": user.is_program,
        "docs_url": reverse("botapi:docs"),
    }
    return render(request, "botapi/account.html", context)


@cache
def _docs_html(language: str) -> SafeString:
    """``docs/bot-api.md`` (``bot-api.ru.md`` in Russian) as HTML, once per process."""
    name = "bot-api.ru.md" if language == "ru" else "bot-api.md"
    text = (settings.BASE_DIR / "docs" / name).read_text(encoding="utf-8")
    # attr_list reads the headings' "{#anchor}" as their ids instead of printing it.
    return mark_safe(markdown.markdown(text, extensions=["tables", "fenced_code", "attr_list", "toc"]))


def docs(request: HttpRequest) -> HttpResponse:
    """The Bot API's documentation page."""
    return render(request, "botapi/docs.html", {"html": _docs_html(get_language() or "en")})
