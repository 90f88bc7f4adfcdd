"""The nginx block of docs/production.md, and deploy/nginx/durak.conf, are configurations nginx
accepts (``nginx -t``), with the same per-address limits as each other and as the nginx that
``manage.py loadtest --nginx`` runs (``tools/loadtest_nginx.conf``).

The block is taken from the page itself, so the page cannot drift into a configuration that does
not load. It stands in an ``http`` block of a minimal nginx.conf, with a throwaway self-signed
certificate in place of the page's paths. Skipped where nginx or openssl is not installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "production.md"
DEPLOYED = ROOT / "deploy" / "nginx" / "durak.conf"
LOADTEST = ROOT / "tools" / "loadtest_nginx.conf"


def nginx_block() -> str:
    blocks = re.findall(r"```nginx\n(.*?)```", PAGE.read_text(), flags=re.DOTALL)
    assert len(blocks) == 1, "docs/production.md holds one nginx block"
    return str(blocks[0])


def limits(config: str) -> list[str]:
    """The ``limit_*`` directives of ``config``, without comments or indentation, in order."""
    lines = (line.split("#", 1)[0].strip() for line in config.splitlines())
    return [line for line in lines if line.startswith("limit_")]


def test_the_block_limits_sockets_and_the_api_and_never_marks_a_daphne_down() -> None:
    block = nginx_block()
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+([^;]*);", block, flags=re.MULTILINE)
    assert servers and all("max_fails=0" in options for options in servers)
    for location in ("/ws/", "/api/"):
        body = block.split(f"location {location} {{", 1)[1].split("}", 1)[0]
        assert "limit_req zone=" in body and "limit_conn " in body


def test_the_block_limits_page_requests_per_address() -> None:
    block = nginx_block()
    body = block.split("location / {", 1)[1].split("}", 1)[0]
    assert "limit_req zone=durak_pages " in body
    assert "zone=durak_pages:" in block


def test_the_deployed_site_and_the_load_test_proxy_have_the_blocks_limits() -> None:
    expected = limits(nginx_block())
    assert limits(DEPLOYED.read_text()) == expected
    assert limits(LOADTEST.read_text()) == expected


@pytest.mark.skipif(
    not (shutil.which("nginx") and shutil.which("openssl")), reason="nginx or openssl missing"
)
@pytest.mark.parametrize("source", ["page", "deploy"])
def test_nginx_accepts_the_block(tmp_path: Path, source: str) -> None:
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=durak.test",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    text = nginx_block() if source == "page" else DEPLOYED.read_text()
    block = re.sub(r"ssl_certificate \S+;", f"ssl_certificate {certificate};", text)
    block = re.sub(r"ssl_certificate_key \S+;", f"ssl_certificate_key {key};", block)
    config = tmp_path / "nginx.conf"
    config.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\naccess_log off;\nclient_body_temp_path {tmp_path}/body;\n"
        f"proxy_temp_path {tmp_path}/proxy;\n{block}\n}}\n"
    )
    result = subprocess.run(
        ["nginx", "-e", str(tmp_path / "error.log"), "-p", str(tmp_path), "-t", "-c", str(config)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
