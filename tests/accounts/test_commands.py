"""ensure_bots and ensure_demo are safe to run on every start."""

import pytest
from django.core.management import call_command

from accounts.models import BUILT_IN_BOT_LEVELS, User

pytestmark = pytest.mark.django_db


def test_ensure_bots_makes_one_bot_per_level_once() -> None:
    call_command("ensure_bots")
    call_command("ensure_bots")
    bots = User.objects.filter(is_bot=True)
    assert sorted(bots.values_list("bot_level", flat=True)) == sorted(BUILT_IN_BOT_LEVELS)
    assert all(not bot.has_usable_password() for bot in bots)


def test_ensure_demo_makes_a_staff_user_that_can_log_in(client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.DEMO_PASSWORD = "demo-password-for-tests"
    call_command("ensure_demo")
    call_command("ensure_demo")
    demo = User.objects.get(username="demo")
    assert demo.is_staff
    response = client.post(
        "/accounts/login/", {"login": "demo@example.com", "password": "demo-password-for-tests"}
    )
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


def test_bot_level_requires_a_bot() -> None:
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        User.objects.create(username="fake", display_name="Fake", is_bot=False, bot_level="easy")
