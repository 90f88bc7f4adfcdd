"""A serving process tunes its garbage collector once the application is built."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from django.conf import settings

from durak_site.collector import YOUNG_THRESHOLD

PROBE = """
import gc, json
before = gc.get_threshold()
import durak_site.asgi
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


def test_importing_the_asgi_application_freezes_start_up_and_raises_the_young_threshold() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["DJANGO_SETTINGS_MODULE"] = "durak_site.settings"
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert probe["after"] == [YOUNG_THRESHOLD, *probe["before"][1:]]
    assert probe["frozen"] > 10_000  # Django, the URL configuration, the models: all of start-up
