"""Pages of match history: a user's matches, the finished match page with its replay, the exports
and the page on fair deals. Thin: parse, call one selector, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.models import User
from durak_site.http import HtmxHttpRequest
from games import seeding
from games.fairness import CHECK_CODE, seed_commitment
from games.models import Match
from games.pools import table_kind_pool
from games.results import FOOL
from games.words import pool_label, variant_name
from history.export import history_csv
from history.forms import HistoryFilterForm
from history.match_export import match_export
from history.replay import replay_log, replay_step, stored_moves
from history.review.export import reviews_export
from history.review.presenters import rating_edges, step_verdicts
from history.review.selectors import match_reviews, review_accuracies
from history.review.views import finished_match_or_404, panel_context
from history.selectors import (
    history_page,
    row_outcome,
    user_history,
    user_opponents,
)
from play.chat.presenters import present_lines, replay_reader
from play.chat.selectors import match_lines
from tournaments.selectors import player_history


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _filter_form(request: HttpRequest, user: User) -> HistoryFilterForm:
    tournaments = [(entry.tournament_id, entry.tournament.name) for entry in player_history(user=user)]
    return HistoryFilterForm(
        request.GET or None, opponents=list(user_opponents(user=user)), tournaments=tournaments
    )


@login_required
def history(request: HtmxHttpRequest) -> HttpResponse:
    """The signed-in user's finished matches, newest first, filtered and paginated."""
    user = _user(request)
    form = _filter_form(request, user)
    page = history_page(user=user, filters=form.filters(), page=request.GET.get("page", 1))
    query = request.GET.copy()
    query.pop("page", None)
    accuracies = review_accuracies(rows=[(row.match_id, row.seat) for row in page.object_list])
    rows = [
        {
            "row": row,
            "accuracy": accuracies.get(row.match_id),
            "outcome": row_outcome(row),
            "variant": variant_name(row.match.rules.get("variant")),
            "opponents": [p for p in row.match.players.all() if p.user_id != user.pk],
        }
        for row in page.object_list
    ]
    context = {"form": form, "page": page, "rows": rows, "query": query.urlencode()}
    template = "history/list.html#results" if request.htmx else "history/list.html"
    return render(request, template, context)


@login_required
def history_export(request: HttpRequest) -> HttpResponse:
    """The filtered history as a CSV file."""
    user = _user(request)
    form = _filter_form(request, user)
    response = HttpResponse(
        history_csv(user_history(user=user, filters=form.filters())), content_type="text/csv"
    )
    response["Content-Disposition"] = 'attachment; filename="durak-history.csv"'
    return response


def match_page(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """A finished match: players, finishing order, rating changes, the seed, and the replay
    at ``?step=N`` (an htmx request gets the replay fragment alone). A running match's page
    is the live one."""
    if Match.objects.filter(pk=match_id).exclude(status=Match.Status.FINISHED).exists():
        return redirect("games:match", match_id)
    match = finished_match_or_404(request, match_id)
    moves = stored_moves(match)
    try:
        number = int(request.GET.get("step", 0))
    except ValueError:
        number = 0
    step = replay_step(match, moves, number)
    verdicts = step_verdicts(match_reviews(match=match), rating_edges(match.rules, match.players.all()))
    if request.htmx:  # a step of the replay: the fragment needs neither the log nor the players
        context = {"match": match, "step": step, "verdict": verdicts.get(step.number)}
        return render(request, "history/match.html#replay", context)
    changes = {change.user_id: change for change in match.rating_changes.all()}
    names = {p.seat: p.user.public_name for p in match.players.all()}
    result = match.result or {}
    teams = bool(match.rules.get("teams"))
    reader = replay_reader(request.user)
    chat = present_lines(match_lines(match), reader)
    rooms = {line.id: line.room for line in match_lines(match)} if chat else {}
    context = {
        "chat_players": [shown for shown in chat if rooms[shown.id] == "players"],
        "chat_spectators": [shown for shown in chat if rooms[shown.id] == "spectators"],
        "match": match,
        "step": step,
        "log": [(entry, verdicts.get(entry.number)) for entry in replay_log(match, moves)],
        "verdict": verdicts.get(step.number),
        **panel_context(request, match, len(moves)),
        "variant": variant_name(match.rules.get("variant")),
        "pool": pool_label(table_kind_pool(match.rules)),
        "players": [
            {"player": p, "change": changes.get(p.user_id), "fool": p.fool}
            for p in sorted(match.players.all(), key=lambda p: (p.fool, p.place or 0, p.seat))
        ],
        "places": [[names.get(seat, "?") for seat in group] for group in result.get("places", ())],
        "draw": bool(result.get("draw")),
        "fool_word": FOOL,
        "teams": teams,
        "commitment": seed_commitment(match),
        "seed": match.seed,
        "values": [
            {**entry, "name": names.get(int(entry.get("seat", -1)), "?")} for entry in match.contributions
        ],
    }
    return render(request, "history/match.html", context)


def match_export_json(request: HttpRequest, match_id: int) -> HttpResponse:
    """The finished match as JSON the engine replays (``history.match_export``)."""
    match = finished_match_or_404(request, match_id)
    data = {**match_export(match), "reviews": reviews_export(match)}
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="durak-match-{match.pk}.json"'
    return response


def fair(request: HttpRequest) -> HttpResponse:
    """How to check a deal: the commitment, the seed, and a few lines of Python."""
    server_seed = "0f3c9a1b2d4e5f60718293a4b5c6d7e8"
    values = ["5be1c0de9a8f7e6d5c4b3a2918070605", ""]
    example = {
        "server_seed": server_seed,
        "commitment": seeding.commitment(server_seed),
        "values": values,
        "seed": seeding.deal_seed(server_seed, values),
    }
    return render(
        request,
        "history/fair.html",
        {"code": CHECK_CODE, "example": example, "title": _("Fair deals")},
    )
