"""The leaderboard page: one pool at a time, established players ranked, provisional ones apart,
bots apart from both; and the staff's queue of suspicious pairs."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import User
from games.words import pool_choices
from ratings import selectors
from ratings.elo import PROVISIONAL_GAMES
from ratings.selectors import bot_ratings, leaderboard_page, provisional_ratings
from ratings.starts import BOT_START_RATINGS

DEFAULT_POOL = "podkidnoy:2"


def bot_level_label(level: str) -> str:
    """The level's name as the site shows it ("easy", "лёгкий")."""
    return str(User.BotLevel(level).label)


def leaderboard(request: HttpRequest) -> HttpResponse:
    """``?pool=<variant>:<kind>`` (default two-player podkidnoy), ``?page=N``."""
    pools = pool_choices()
    labels = dict(pools)
    pool = request.GET.get("pool", DEFAULT_POOL)
    if pool not in labels:
        pool = DEFAULT_POOL
    page = leaderboard_page(pool=pool, page=request.GET.get("page", 1))
    context = {
        "pool": pool,
        "pool_name": labels[pool],
        "pool_query": urlencode({"pool": pool}),
        "pools": pools,
        "page": page,
        "first_rank": page.start_index(),
        "provisional": list(provisional_ratings(pool=pool)),
        "provisional_games": PROVISIONAL_GAMES,
        "bots": list(bot_ratings(pool=pool)),
        "bot_starts": [(bot_level_label(level), round(start)) for level, start in BOT_START_RATINGS.items()],
    }
    return render(request, "ratings/leaderboard.html", context)


@login_required
@permission_required("ratings.view_suspicious_pairs", raise_exception=True)
def suspicious_pairs(request: HttpRequest) -> HttpResponse:
    """The staff's queue (``ratings.selectors.suspicious_pairs``): pairs of accounts whose rated
    games together look like boosting, for a person to look at (a bar is given from the
    moderation queue). A player without the permission gets a 403."""
    context = {
        "pairs": selectors.suspicious_pairs(),
        "days": selectors.PAIRS_WINDOW_DAYS,
        "min_games": selectors.PAIRS_MIN_GAMES,
        "one_sided": round(selectors.PAIRS_ONE_SIDED * 100),
        "early_share": round(selectors.PAIRS_EARLY_SHARE * 100),
    }
    return render(request, "ratings/suspicious_pairs.html", context)
