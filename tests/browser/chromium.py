"""Where the browser tests find Chromium and how they start it (Debian's package; Playwright cannot
download browsers here). The flags keep it off the closed network: without them it keeps trying."""

from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
