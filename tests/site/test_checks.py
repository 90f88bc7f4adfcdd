"""The site's own deployment check: the proxy in front of daphne and the client's address."""

from __future__ import annotations

import pytest
from django.core import checks
from django.test import override_settings

from durak_site.checks import PROXY_ADDRESS


def _deploy_warnings() -> list[str]:
    found = checks.run_checks(include_deployment_checks=True, tags=[checks.Tags.security])
    return [message.id for message in found if message.id]


@pytest.mark.parametrize(
    ("proxy_header", "proxies", "warned"),
    [
        (("HTTP_X_FORWARDED_PROTO", "https"), 0, True),  # production's setting, the count forgotten
        (("HTTP_X_FORWARDED_PROTO", "https"), 1, False),  # docs/production.md's nginx
        (("HTTP_X_FORWARDED_PROTO", "https"), 2, False),  # a load balancer in front of it
        (None, 0, False),  # no proxy at all (development, the embedded site)
    ],
)
def test_check_deploy_warns_when_a_proxy_is_trusted_for_the_scheme_but_not_the_address(
    proxy_header: tuple[str, str] | None, proxies: int, warned: bool
) -> None:
    with override_settings(SECURE_PROXY_SSL_HEADER=proxy_header, TRUSTED_PROXIES=proxies):
        assert (PROXY_ADDRESS in _deploy_warnings()) is warned


def test_the_check_runs_only_with_deploy() -> None:
    with override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"), TRUSTED_PROXIES=0):
        ordinary = checks.run_checks(tags=[checks.Tags.security])
    assert PROXY_ADDRESS not in [message.id for message in ordinary]
