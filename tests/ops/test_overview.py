"""The staff's ops page: the live state at a glance, for staff only, with links to the staff's
queues they may see."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from durak_site import heartbeat
from ops import errors
from tests.play.services_support import make_user, start_match


@pytest.mark.django_db
def test_staff_see_the_live_state_and_nobody_else_does(client: Client) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    start_match(humans=[alice, bob])
    heartbeat.beat("timeout")
    errors.ErrorCountHandler().handle(logging.makeLogRecord({"levelno": logging.ERROR, "msg": "boom"}))

    client.force_login(alice)
    assert client.get("/ops/").status_code == 302  # to the admin's login: not for members
    staff = make_user("operator")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    response = client.get("/ops/")
    assert response.status_code == 200
    page = response.content.decode()
    assert response.context["matches_in_play"] == 1
    assert response.context["errors_last_hour"] >= 1
    assert response.context["last_timeout_age"] is not None
    assert "Matches in play" in page and response.context["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_the_page_is_in_russian_too(client: Client) -> None:
    staff = make_user("operator")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    page = client.get("/ops/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Партий идёт" in page


@pytest.mark.django_db
@pytest.mark.parametrize(("permitted", "language"), [(False, "en"), (True, "en"), (True, "ru")])
def test_the_page_links_the_suspicious_pairs_queue_only_for_staff_who_may_see_it(
    client: Client, permitted: bool, language: str
) -> None:
    staff = make_user("operator")
    staff.is_staff = True
    staff.save()
    if permitted:
        staff.user_permissions.add(
            Permission.objects.get(content_type__app_label="ratings", codename="view_suspicious_pairs")
        )
    client.force_login(staff)
    page = client.get("/ops/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    link = f'href="{reverse("suspicious_pairs")}"'
    assert (link in page) is permitted
    if permitted:
        assert {"en": "Suspicious pairs", "ru": "Подозрительные пары"}[language] in page
        assert client.get(reverse("suspicious_pairs")).status_code == 200  # the link leads somewhere
