"""Who gets into the admin, and how: through allauth's login and its limits, and the demo user's
"Club staff" group, which views everything of the club and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import CLUB_STAFF_APPS, CLUB_STAFF_GROUP

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN_TO_ADMIN = "/accounts/login/?next=/admin/"


@pytest.fixture
def staff(db: None) -> User:
    from allauth.account.models import EmailAddress

    user = User.objects.create_user(
        username="olga", email="olga@example.com", password=PASSWORD, display_name="Olga", is_staff=True
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_the_admin_login_form_signs_nobody_in(client: Client, staff: User) -> None:
    """Django's admin form had no limit; the admin now sends everyone to allauth's login."""
    response = client.post(reverse("admin:login"), {"username": "olga", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert "_auth_user_id" not in client.session


def test_twenty_five_wrong_passwords_then_the_right_one_do_not_get_into_the_admin(
    client: Client, staff: User
) -> None:
    for attempt in range(25):
        client.post(reverse("admin:login"), {"username": "olga", "password": f"wrong-{attempt}"})
        client.post(LOGIN_TO_ADMIN, {"login": staff.email, "password": f"w{attempt}"})
    response = client.post(LOGIN_TO_ADMIN, {"login": staff.email, "password": PASSWORD})
    assert "Too many failed login attempts" in response.content.decode()
    assert client.get("/admin/").status_code == 302


def test_staff_sign_in_through_the_site_and_reach_the_admin(client: Client, staff: User) -> None:
    response = client.get("/admin/", follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("account_login"))
    response = client.post(LOGIN_TO_ADMIN, {"login": staff.email, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_a_member_who_is_not_staff_is_refused_by_the_admin_login(client: Client, staff: User) -> None:
    member = User.objects.create_user(username="ivan", password=PASSWORD, display_name="Ivan")
    client.force_login(member)
    assert client.get(reverse("admin:login")).status_code == 403


# --- the demo user ----------------------------------------------------------------------------


@pytest.fixture
def demo(client: Client, settings: Any) -> User:
    settings.DEMO_PASSWORD = "demo-password-for-tests"
    call_command("ensure_demo")
    credentials = {"login": "demo@example.com", "password": "demo-password-for-tests"}
    response = client.post("/accounts/login/", credentials)
    assert response.status_code == 302
    return User.objects.get(username="demo")


def _club_models() -> list[type[Any]]:
    return [model for model in admin.site._registry if model._meta.app_label in CLUB_STAFF_APPS]


def test_the_demo_user_is_club_staff_and_no_superuser(demo: User) -> None:
    assert demo.is_staff and not demo.is_superuser
    assert list(demo.groups.values_list("name", flat=True)) == [CLUB_STAFF_GROUP]
    permissions = Group.objects.get(name=CLUB_STAFF_GROUP).permissions.all()
    assert permissions and all(p.codename.startswith("view_") for p in permissions)


def test_the_demo_user_sees_every_club_page_of_the_admin(client: Client, demo: User) -> None:
    index = client.get("/admin/")
    assert index.status_code == 200
    assert "permission to view or edit anything" not in index.content.decode()
    assert _club_models()
    for model in _club_models():
        meta = model._meta
        response = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert response.status_code == 200, meta.label
    own_page = client.get(reverse("admin:accounts_user_change", args=[demo.pk]))
    assert own_page.status_code == 200


def test_the_demo_user_changes_nothing(client: Client, demo: User) -> None:
    for model in _club_models():
        meta = model._meta
        add_page = reverse(f"admin:{meta.app_label}_{meta.model_name}_add")
        assert client.get(add_page).status_code == 403, meta.label
    response = client.post(
        reverse("admin:accounts_user_change", args=[demo.pk]), {"username": "demo", "is_superuser": "on"}
    )
    assert response.status_code == 403
    demo.refresh_from_db()
    assert not demo.is_superuser
    assert client.get(reverse("admin:auth_group_changelist")).status_code == 403


def test_ensure_demo_twice_keeps_one_group_with_the_same_rights(demo: User, settings: Any) -> None:
    before = set(Group.objects.get(name=CLUB_STAFF_GROUP).permissions.values_list("codename", flat=True))
    call_command("ensure_demo")
    assert Group.objects.filter(name=CLUB_STAFF_GROUP).count() == 1
    after = set(Group.objects.get(name=CLUB_STAFF_GROUP).permissions.values_list("codename", flat=True))
    assert before == after
