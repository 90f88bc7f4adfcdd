from django.urls import path

from . import views

app_name = "botapi"

urlpatterns = [
    path("api/", views.docs, name="docs"),
    path("account/bot/", views.bot_account, name="account_page"),
    path("api/account", views.account, name="account"),
    path("api/bot/account/upgrade", views.account_upgrade, name="upgrade"),
    path("api/stream/event", views.stream_event, name="stream_event"),
    path("api/bot/game/stream/<int:match_id>", views.stream_game, name="stream_game"),
    path("api/bot/game/<int:match_id>/move", views.game_move, name="move"),
    path("api/bot/game/<int:match_id>/resign", views.game_resign, name="resign"),
    path("api/bot/game/<int:match_id>/chat", views.game_chat, name="chat"),
    path("api/challenge/ai", views.challenge_ai, name="challenge_ai"),
    path(
        "api/challenge/<int:challenge_id>/accept",
        views.challenge_answer,
        {"answer": "accept"},
        name="challenge_accept",
    ),
    path(
        "api/challenge/<int:challenge_id>/decline",
        views.challenge_answer,
        {"answer": "decline"},
        name="challenge_decline",
    ),
    path("api/tournament/<int:tournament_id>/join", views.tournament_join, name="tournament_join"),
    path(
        "api/tournament/<int:tournament_id>/withdraw", views.tournament_withdraw, name="tournament_withdraw"
    ),
]
