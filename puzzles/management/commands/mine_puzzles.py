"""``manage.py mine_puzzles``: read every finished match past the miner's cursor now."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from puzzles.services import BATCH, mine_new


class Command(BaseCommand):
    help = "Mine puzzles from the finished two-player matches not yet read."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", type=int, default=BATCH, help="matches read per round")

    def handle(self, *args: Any, **options: Any) -> None:
        total_read = total_made = 0
        while True:
            read, made = mine_new(options["batch"])
            total_read += read
            total_made += made
            if read < options["batch"]:
                break
        self.stdout.write(f"{total_read} matches read, {total_made} puzzles made")
