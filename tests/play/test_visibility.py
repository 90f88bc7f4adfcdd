"""Who sees which card, row by row (``docs/rules.md`` §6 "What every player sees").

Everything a page or a socket shows is rendered from ``play.presenters``; these tests read the
rendered HTML and the socket frames, never the context, so a leak anywhere in the templates is
caught too. A card is "shown" when its face is drawn (``cards.svg#card-6S``), when it is offered
as a choice (``data-card="6S"``), or, for a card that never went public, when its label appears
in any text ("6♠").

==  ==================  ======================  =============  ==============  ===============
#   viewer              match state             own hand       other hands     stock order
==  ==================  ======================  =============  ==============  ===============
1   seated player       active, just dealt      face up        backs + count   count only
2   the other player    active, just dealt      face up        backs + count   count only
3   spectator           active                  (none)         backs + count   count only
4   anonymous visitor   active                  (none)         backs + count   count only
5   seated player       active, mid-game        face up        backs + count   count only
6   seated player       htmx POST fallback      face up        backs + count   count only
7   stranger/anonymous  active, private table   refused        refused         refused
8   anyone              finished                every hand     every hand      (no stock left
                                                face up        face up         to show)
==  ==================  ======================  =============  ==============  ===============

Rows 1-5 are checked on the full page and on the socket's first frame; the trump card under
the stock is public in every row.
"""

from __future__ import annotations

import json
from html import unescape

import pytest
from asgiref.sync import async_to_sync
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.engine import GameState, Rules
from games.models import Match
from games.templatetags.cards import card_label
from play import services
from play.routing import websocket_urlpatterns

from .services_support import make_user, play_out, start_match, state_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("play.services.tables.new_seed", lambda: "visibility-seed")


def page_for(match: Match, user: User | AnonymousUser) -> str:
    client = Client()
    if isinstance(user, User):
        client.force_login(user)
    response = client.get(reverse("games:match", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def first_frame(match: Match, user: User | AnonymousUser) -> str:
    async def run() -> str:
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/match/{match.pk}/")
        communicator.scope["user"] = user
        connected, _code = await communicator.connect(timeout=5)
        assert connected
        frame: str = await communicator.receive_from(timeout=5)
        await communicator.disconnect()
        return frame

    return async_to_sync(run)()


def drawn(html: str, code: str) -> bool:
    """Whether the face of ``code`` is drawn or offered in ``html``."""
    return f'#card-{code}"' in html or f'data-card="{code}"' in html


def hidden_from(state: GameState, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may not see: other hands and the stock."""
    full = state.full_view()
    assert full.hands is not None and full.stock is not None
    hidden = {c for s, hand in enumerate(full.hands) if s != seat for c in hand}
    hidden |= set(full.stock)
    hidden.discard(full.trump_card or "")
    return hidden


def assert_sees_exactly(html: str, state: GameState, seat: int | None, *, fresh: bool) -> None:
    """Own hand face up (for a player), nothing hidden drawn; for a fresh deal (no card played
    yet) not even the label of a hidden card."""
    if seat is not None:
        for code in state.view(seat).hand:
            assert drawn(html, code), f"own card {code} is missing"
    else:
        assert "data-card=" not in html
    for code in hidden_from(state, seat):
        assert not drawn(html, code), f"hidden card {code} is drawn"
        if fresh:
            assert card_label(code) not in html, f"hidden card {code} is named"
    view = state.spectator_view()
    assert f"<strong>{view.stock_count}</strong>" in html  # the stock's count, nothing more
    if view.trump_card:
        assert drawn(html, view.trump_card)


@pytest.fixture
def match() -> Match:
    alice, bob = make_user("alice"), make_user("bob")
    return start_match(humans=[alice, bob], rules=Rules(players=2))


def player(match: Match, seat: int) -> User:
    return match.players.select_related("user").get(seat=seat).user


@pytest.mark.parametrize("seat", [0, 1], ids=["row1-seated-player", "row2-the-other-player"])
def test_a_player_sees_only_their_own_hand(match: Match, seat: int) -> None:
    state = state_of(match)
    user = player(match, seat)
    assert_sees_exactly(page_for(match, user), state, seat, fresh=True)
    assert_sees_exactly(first_frame(match, user), state, seat, fresh=True)


def test_row3_a_spectator_sees_no_hand(match: Match) -> None:
    state = state_of(match)
    carol = make_user("carol")
    assert_sees_exactly(page_for(match, carol), state, None, fresh=True)
    assert_sees_exactly(first_frame(match, carol), state, None, fresh=True)


def test_row4_an_anonymous_visitor_sees_no_hand(match: Match) -> None:
    state = state_of(match)
    assert_sees_exactly(page_for(match, AnonymousUser()), state, None, fresh=True)
    assert_sees_exactly(first_frame(match, AnonymousUser()), state, None, fresh=True)


def test_row5_mid_game_the_views_stay_censored(match: Match) -> None:
    for _ in range(6):  # a few moves: leads, covers, maybe a take and a draw
        state = state_of(match)
        seat = min(state.awaiting())
        services.action_apply(
            match_id=match.pk,
            user=player(match, seat),
            action_text=str(state.default_action(seat)),
            expected_version=match.version,
        )
    state = state_of(match)
    for seat in (0, 1):
        user = player(match, seat)
        assert_sees_exactly(page_for(match, user), state, seat, fresh=False)
        assert_sees_exactly(first_frame(match, user), state, seat, fresh=False)
    assert_sees_exactly(page_for(match, make_user("carol")), state, None, fresh=False)


def test_row6_the_post_fallback_answers_with_the_senders_view_only(match: Match) -> None:
    state = state_of(match)
    seat = min(state.awaiting())
    user = player(match, seat)
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("games:match_action", args=[match.pk]),
        {"action": str(state.default_action(seat)), "version": match.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert_sees_exactly(response.content.decode(), state_of(match), seat, fresh=False)


def test_row7_a_stranger_cannot_see_a_private_table() -> None:
    alice, bob, mallory = make_user("alice"), make_user("bob"), make_user("mallory")
    table = services.table_create(creator=alice, rules=Rules(), private=True)
    services.table_join(table_id=table.pk, user=bob, invite_token=table.invite_token)
    match = Match.objects.get(table=table)
    for user in (mallory, AnonymousUser()):
        client = Client()
        if isinstance(user, User):
            client.force_login(user)
        assert client.get(reverse("games:match", args=[match.pk])).status_code == 404


def test_row8_after_the_game_everyone_sees_every_hand(match: Match) -> None:
    finished = play_out(match)
    assert finished.status == Match.Status.FINISHED
    state = state_of(finished)
    full = state.full_view()
    assert full.hands is not None
    for viewer in (player(finished, 0), make_user("carol"), AnonymousUser()):
        html = page_for(finished, viewer)
        for hand in full.hands:
            for code in hand:
                assert f'#card-{code}"' in html
    assert "The fool" in html or "draw" in html


def test_the_legal_actions_given_to_the_page_are_the_viewers_own(match: Match) -> None:
    """The card-choosing script gets the viewer's legal actions; a spectator gets none."""
    state = state_of(match)
    seat = min(state.awaiting())
    html = page_for(match, player(match, seat))
    legal = {str(a) for a in state.legal_actions(seat)}
    start = html.index('data-legal="') + len('data-legal="')
    payload = unescape(html[start : html.index('"', start)])
    assert {move["action"] for move in json.loads(payload)} == legal
    assert 'data-legal="[]"' in page_for(match, make_user("carol"))
