"""The site's own deployment checks (``manage.py check --deploy``).

Django's deployment checks know nothing of the proxy in front of daphne. In production the site
trusts a proxy's ``X-Forwarded-Proto`` (``SECURE_PROXY_SSL_HEADER``), so one is there; with
``DJANGO_TRUSTED_PROXIES`` left at 0 every request then counts as coming from the proxy's address
(``durak_site.proxy``), and the limits that count by address, on logins, signups and password
resets, are one limit shared by everybody: a stranger who fails to log in a few times locks every
player out.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

#: The client's address behind a proxy is the proxy's own.
PROXY_ADDRESS = "durak_site.W001"


@checks.register(checks.Tags.security, deploy=True)
def trusted_proxies_set(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    """Warn when the site trusts a proxy for the scheme but not for the client's address."""
    if settings.SECURE_PROXY_SSL_HEADER and not settings.TRUSTED_PROXIES:
        return [
            checks.Warning(
                "DJANGO_TRUSTED_PROXIES is 0 while a proxy sets X-Forwarded-Proto: every client "
                "counts as the proxy's address, so all of them share one limit on logins, signups "
                "and password resets.",
                hint="Set DJANGO_TRUSTED_PROXIES to the number of your proxies in front of daphne "
                "(1 for docs/production.md's nginx).",
                id=PROXY_ADDRESS,
            )
        ]
    return []
