"""History, the finished match page with its replay, the exports and the fair-deal page, with
their query counts (issue 5, "Match history")."""

from __future__ import annotations

import csv
import io
import json
import random
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine import Rules
from games.models import Match
from games.results import OUTCOMES
from history.match_export import match_export, match_import
from history.selectors import HistoryFilters, history_page, row_outcome, user_history
from ratings.services import match_rate
from tests.play.services_support import make_user, match_replayed_snapshot
from tests.ratings.builders import finished_match, make_users, minutes
from tests.tournaments.support import open_with_bots, play_running_games
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

RULES = [
    Rules.for_variant("podkidnoy", players=2),
    Rules.for_variant("podkidnoy", players=3),
    Rules.for_variant("perevodnoy", players=4, teams=True),
    Rules.for_variant("circle", players=3),
    Rules.for_variant("perevodnoy", players=2),
]


@pytest.fixture
def played() -> tuple[list[User], list[Match]]:
    """Forty finished matches of four users (user 0 in all), rated and casual, some with a leaver."""
    rng = random.Random(5)
    users = make_users(4, prefix="h")
    matches = []
    for n in range(40):
        rules = RULES[n % len(RULES)]
        seated = [users[0], *rng.sample(users[1:], rules.players - 1)] if rules.players <= 4 else users
        rng.shuffle(seated)
        matches.append(
            finished_match(
                seated,
                rules,
                seed=f"h-{n}",
                rng=rng,
                rated=n % 2 == 0,
                finished_at=minutes(n * 60 * 24),
                forfeits=[1] if n % 7 == 3 else [],
            )
        )
        if n % 2 == 0:
            match_rate(matches[-1].pk)
    return users, matches


def test_history_is_newest_first_and_filters_combine(played: tuple[list[User], list[Match]]) -> None:
    users, matches = played
    me = users[0]
    rows = list(user_history(user=me))
    assert [row.match_id for row in rows] == [m.pk for m in reversed(matches)]
    # rating_delta: annotated by user_history, whose QuerySet[MatchPlayer] type does not carry it
    assert all(row.rating_delta is not None for row in rows if row.match.table.rated)  # type: ignore[attr-defined]

    def ids(**filters: Any) -> set[int]:
        return {row.match_id for row in user_history(user=me, filters=HistoryFilters(**filters))}

    assert ids(variant="circle") == {m.pk for m in matches if m.rules["variant"] == "circle"}
    assert ids(pool="perevodnoy:2v2") == {m.pk for m in matches if m.rules["teams"]}
    assert ids(pool="podkidnoy:3-6") == {
        m.pk for m in matches if m.rules["variant"] == "podkidnoy" and m.rules["players"] >= 3
    }
    assert ids(rated=True) == {m.pk for m in matches if m.table.rated}
    assert ids(opponent=users[1].pk) == {m.pk for m in matches if m.players.filter(user=users[1]).exists()}
    assert ids(date_from=date(2026, 1, 11), date_to=date(2026, 1, 20)) == {m.pk for m in matches[10:20]}
    assert ids(rated=False, variant="podkidnoy") == ids(rated=False) & ids(variant="podkidnoy")


def test_the_outcome_filter_agrees_with_the_stored_results(played: tuple[list[User], list[Match]]) -> None:
    """The database filter and ``games.results.seat_outcome`` say the same word for every row."""
    users, _matches = played
    for user in users:
        expected: dict[str, set[int]] = {outcome: set() for outcome in OUTCOMES}
        for row in user_history(user=user):
            expected[row_outcome(row)].add(row.match_id)
        for outcome in OUTCOMES:
            found = {row.match_id for row in user_history(user=user, filters=HistoryFilters(outcome=outcome))}
            assert found == expected[outcome], (user, outcome)
    assert sum(1 for row in user_history(user=users[0]) if row_outcome(row) == "fool") > 0


def test_a_history_page_costs_three_queries(
    played: tuple[list[User], list[Match]], django_assert_num_queries: object
) -> None:
    """Count, page (with the rating change annotated) and the players prefetch: no N+1."""
    me = played[0][0]
    with django_assert_num_queries(3):  # type: ignore[operator]
        page = history_page(user=me, filters=HistoryFilters(outcome="won", rated=True), page=1)
        for row in page.object_list:
            [p.user.public_name for p in row.match.players.all()]
            row_outcome(row)


def test_the_history_page_and_csv(played: tuple[list[User], list[Match]], client: Client) -> None:
    users, matches = played
    client.force_login(users[0])
    response = client.get(reverse("history"), {"variant": "podkidnoy"})
    assert response.status_code == 200
    assert f"#{matches[-5].pk}" in response.content.decode()
    partial = client.get(reverse("history"), {"outcome": "fool"}, headers={"HX-Request": "true"})
    assert b"<html" not in partial.content and b"history-results" in partial.content
    data = client.get(reverse("history_export"), {"rated": "1"})
    lines = list(csv.reader(io.StringIO(data.content.decode())))
    assert lines[0][0] == "match" and len(lines) == 1 + sum(1 for m in matches if m.table.rated)


def test_replay_of_stored_matches_equals_their_stored_final_state(
    played: tuple[list[User], list[Match]],
) -> None:
    for match in played[1]:
        assert match_replayed_snapshot(match) == match.snapshot


def test_export_replays_to_the_same_end(played: tuple[list[User], list[Match]], client: Client) -> None:
    """The JSON export, parsed back, replays through the engine to the stored snapshot and the
    engine's own result."""
    for match in played[1][:10]:
        response = client.get(reverse("match_export", args=[match.pk]))
        data = json.loads(response.content)
        state = match_import(data)
        assert state.to_json() == match.snapshot
        assert data["result"] == match.result
        result = state.result()
        assert result is not None and result.to_dict() == match.result["engine"]
    with pytest.raises(ValueError):
        match_import({"format": "other"})


def test_the_match_page_steps_through_every_action(
    played: tuple[list[User], list[Match]], client: Client
) -> None:
    match = played[1][1]
    moves = match.moves.count()
    page = client.get(reverse("match_record", args=[match.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert match.seed in html  # revealed once finished
    assert f"Step 0 of {moves}" in html
    step = client.get(reverse("match_record", args=[match.pk]), {"step": 5}, headers={"HX-Request": "true"})
    assert f"Step 5 of {moves}" in step.content.decode() and b"<html" not in step.content
    last = client.get(reverse("match_record", args=[match.pk]), {"step": 10_000})
    assert f"Step {moves} of {moves}" in last.content.decode()
    assert client.get(reverse("match_record", args=[match.pk]), {"step": "x"}).status_code == 200


def test_an_unfinished_match_is_not_on_the_record_page(
    played: tuple[list[User], list[Match]], client: Client
) -> None:
    match = played[1][0]
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ACTIVE)
    response = client.get(reverse("match_record", args=[match.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("games:match", args=[match.pk])
    with pytest.raises(ValueError):
        match_export(Match.objects.get(pk=match.pk))


def test_profile_and_leaderboard_pages(played: tuple[list[User], list[Match]], client: Client) -> None:
    me = played[0][0]
    html = client.get(reverse("club:profile", args=[me.pk])).content.decode()
    assert "<svg" in html and "rating-chart__dot" in html and 'class="provisional"' in html
    board = client.get(reverse("leaderboard"), {"pool": "podkidnoy:2"})
    assert board.status_code == 200 and me.public_name in board.content.decode()
    assert client.get(reverse("fair")).status_code == 200


def test_the_tournament_filter_keeps_that_tournaments_games() -> None:
    organiser = make_user("history-organiser")
    tournament = open_with_bots(organiser, 4)
    tournament_services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament = play_running_games(tournament)
    champion = tournament.entries.get(place=1).player
    casual = finished_match(
        [champion, make_users(1, prefix="t")[0]], Rules(), seed="outside", rng=random.Random(3)
    )

    found = {
        row.match_id for row in user_history(user=champion, filters=HistoryFilters(tournament=tournament.pk))
    }

    assert casual.pk not in found
    assert found == set(
        Match.objects.filter(
            table__tournament_pairing__tournament=tournament, players__user=champion
        ).values_list("pk", flat=True)
    )
    assert len(found) >= 2  # the semi-final and the final, and a decider after any drawn game
    client = Client()
    client.force_login(champion)
    page = client.get(reverse("history"), {"tournament": tournament.pk}).content.decode()
    assert tournament.name in page
