"""``manage.py recompute_ratings``: replay every rated match and compare with the stored ratings.

Exits 0 when the history reproduces every stored rating exactly (it must), else lists each
difference and exits 1. Read only: a difference is a bug to find, not a number to overwrite.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ratings.services import Standing, ratings_differences, ratings_recompute


def _show(standing: Standing | None) -> str:
    if standing is None:
        return "—"
    return (
        f"{standing.rating:.4f} ({standing.games} games, {standing.wins} won, {standing.fools} fool, "
        f"{standing.draws} drawn, best {standing.best:.4f})"
    )


class Command(BaseCommand):
    help = "Recompute every rating from the match history and report any difference from the stored ones."

    def handle(self, *args: Any, **options: Any) -> None:
        book = ratings_recompute()
        differences = ratings_differences(book)
        for difference in differences:
            self.stdout.write(
                f"user {difference.user_id} · {difference.pool}: stored {_show(difference.stored)}, "
                f"recomputed {_show(difference.recomputed)}"
            )
        if differences:
            raise CommandError(f"{len(differences)} rating(s) differ from the match history.")
        self.stdout.write(self.style.SUCCESS(f"{len(book.standings)} ratings match the match history."))
