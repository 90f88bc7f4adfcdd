"""``manage.py ensure_bots``: one bot account per level (random, easy, medium, strong). Idempotent."""

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import BUILT_IN_BOT_LEVELS, User
from accounts.services import bot_ensure


class Command(BaseCommand):
    help = "Create the bot accounts that are missing (one per bot level)."

    def handle(self, *args: Any, **options: Any) -> None:
        for level in BUILT_IN_BOT_LEVELS:
            bot, created = bot_ensure(level=User.BotLevel(level))
            self.stdout.write(f"{'created' if created else 'exists '} {bot.username}")
