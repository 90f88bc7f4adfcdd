"""The ``deploy/`` folder: nginx accepts its site (``nginx -t``) and keeps the metrics private, and
the systemd units start exactly one beat and a worker for every queue."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

DEPLOY = Path(settings.BASE_DIR) / "deploy"


def test_the_nginx_site_passes_the_request_id_and_hides_the_metrics() -> None:
    site = (DEPLOY / "nginx" / "durak.conf").read_text()
    assert "location = /ops/metrics { return 404; }" in site
    # Every location that sets headers of its own sets the request id again.
    assert site.count("proxy_set_header X-Request-ID $request_id;") == site.count(
        "proxy_set_header Host $host;"
    )


@pytest.mark.skipif(
    not (shutil.which("nginx") and shutil.which("openssl")), reason="nginx or openssl missing"
)
def test_nginx_accepts_the_site(tmp_path: Path) -> None:
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=durak.test",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    site = (DEPLOY / "nginx" / "durak.conf").read_text()
    site = re.sub(r"ssl_certificate \S+;", f"ssl_certificate {certificate};", site)
    site = re.sub(r"ssl_certificate_key \S+;", f"ssl_certificate_key {key};", site)
    config = tmp_path / "nginx.conf"
    config.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {tmp_path}/body;\n"
        f"proxy_temp_path {tmp_path}/proxy;\n{site}\n}}\n"
    )
    result = subprocess.run(
        ["nginx", "-e", str(tmp_path / "error.log"), "-p", str(tmp_path), "-t", "-c", str(config)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def _exec_start(unit: str) -> str:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read(DEPLOY / "systemd" / unit)
    return parser["Service"]["ExecStart"]


def test_the_units_run_every_queue_and_exactly_one_beat() -> None:
    units = sorted(path.name for path in (DEPLOY / "systemd").glob("*.service"))
    commands = {unit: _exec_start(unit) for unit in units}
    queues = [re.search(r" -Q (\w+)", command) for command in commands.values()]
    assert sorted(found.group(1) for found in queues if found) == ["bots", "celery", "reviews"]
    assert [unit for unit, command in commands.items() if " beat " in command] == ["durak-beat.service"]
    assert "--port %i" in commands["durak-daphne@.service"]
    wanted = configparser.ConfigParser(interpolation=None)
    wanted.read(DEPLOY / "systemd" / "durak.target")
    assert wanted["Unit"]["Wants"].split().count("durak-beat.service") == 1
