"""The "your turn" chime of the match page (static/sounds/turn.wav), generated rather than
downloaded: two short sine notes (A5 then E6) with soft edges, 0.3 s in all, 16-bit mono.

Run ``python -m tools.turnsound`` to write it again; the output is the same every time.
"""

from __future__ import annotations

import math
import struct
import wave
from pathlib import Path

RATE = 22_050
NOTES = ((880.0, 0.13), (1318.5, 0.17))  # (frequency in Hz, seconds)
VOLUME = 0.35
FADE = 0.012  # seconds of fade in and out of each note, so it does not click
TARGET = Path(__file__).resolve().parents[1] / "static" / "sounds" / "turn.wav"


def samples() -> list[int]:
    """The chime as 16-bit samples."""
    out: list[int] = []
    for frequency, seconds in NOTES:
        count = int(RATE * seconds)
        fade = int(RATE * FADE)
        for i in range(count):
            envelope = min(1.0, i / fade, (count - i) / fade) * math.exp(-3.0 * i / count)
            out.append(int(32767 * VOLUME * envelope * math.sin(2 * math.pi * frequency * i / RATE)))
    return out


def write(path: Path = TARGET) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as sound:
        sound.setnchannels(1)
        sound.setsampwidth(2)
        sound.setframerate(RATE)
        data = samples()
        sound.writeframes(struct.pack(f"<{len(data)}h", *data))
    return path


if __name__ == "__main__":
    print(write())
