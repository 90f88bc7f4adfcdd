"""``manage.py serve_metrics``: the Prometheus exposition of a host that runs no daphne (a worker
host), over a bare HTTP server: the Celery processes' instruments from the host's
``PROMETHEUS_MULTIPROC_DIR``, without the site-wide measures (the web hosts report those).

The same rule as ``/ops/metrics``: with ``OPS_METRICS_TOKEN`` set, only ``Authorization: Bearer
<token>`` is answered; without it, bind it to loopback (the default) or a private interface.
"""

from __future__ import annotations

import hmac
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from prometheus_client import CONTENT_TYPE_LATEST

from ops import exposition


class MetricsHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        token: str = settings.OPS_METRICS_TOKEN
        allowed = not token or hmac.compare_digest(
            self.headers.get("Authorization", "").encode(), f"Bearer {token}".encode()
        )
        if self.path.split("?")[0] != "/metrics" or not allowed:
            self.send_error(404)
            return
        body = exposition.scrape(site_wide=False)
        self.send_response(200)
        self.send_header("Content-Type", CONTENT_TYPE_LATEST)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # a scrape every 15 s is not news
        return


class Command(BaseCommand):
    help = "Serve this host's Prometheus metrics at /metrics (for hosts that run no daphne)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=9108)

    def handle(self, *args: Any, **options: Any) -> None:
        server = ThreadingHTTPServer((options["bind"], options["port"]), MetricsHandler)
        self.stderr.write(f"Metrics at http://{options['bind']}:{server.server_port}/metrics")
        server.serve_forever()
