"""The ASGI entry point: HTTP through Django, websockets through Channels.

Everything first passes ``durak_site.proxy.TrustedProxyMiddleware``, which sets the client's
address from the trusted proxies' ``X-Forwarded-For`` entries. Websockets then pass the limits
per client address (``durak_site.socket_limits``: handshakes and open sockets, before any database
work), the origin check (``durak_site.origins``: the whole origin, scheme, host and port, must be
the site's own or a trusted one, so a page on another site cannot open a socket with our cookies),
the session lookup (``durak_site.socket_auth``: ``scope["user"]``, off the one shared thread) and
the limits per account before reaching the route table, whose last route closes unknown paths.

Once everything is built, the process tunes its garbage collector for serving
(``durak_site.collector``).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
# Django must be set up before anything imports models (consumers, the auth middleware).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from ops.websockets import SocketCounter  # noqa: E402

from .collector import tune_for_serving  # noqa: E402
from .origins import OriginValidator  # noqa: E402
from .proxy import TrustedProxyMiddleware  # noqa: E402
from .routing import websocket_urlpatterns  # noqa: E402
from .socket_auth import SessionAuthMiddleware  # noqa: E402
from .socket_limits import AccountLimits, AddressLimits  # noqa: E402

application = TrustedProxyMiddleware(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Counted first (ops.websockets): a socket open is a socket open, whoever serves it.
            "websocket": SocketCounter(
                AddressLimits(
                    OriginValidator(SessionAuthMiddleware(AccountLimits(URLRouter(websocket_urlpatterns))))
                )
            ),
        }
    )
)

tune_for_serving()
