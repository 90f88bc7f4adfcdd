"""What live play remembers in the process per language, forgotten all at once when a setting
changes.

A push words and draws the same things for every viewer of a move: card faces, labels, legal
actions, log lines, the public fragments. Each is remembered under everything it is made from,
the active language included, so an entry is only ever found by a caller who would make the same
thing. What they are made from besides their arguments (the catalogues, the languages, the static
files' URL) does not change while a process runs, except in tests that change a setting: then
every memo is dropped, as Django drops its own translation caches.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.signals import setting_changed
from django.dispatch import receiver

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

T = TypeVar("T")

#: Every memo made by ``memo``, for ``forget``.
MEMOS: list[_lru_cache_wrapper[Any]] = []


def memo(maxsize: int) -> Callable[[Callable[..., T]], _lru_cache_wrapper[T]]:
    """``functools.lru_cache(maxsize)``, forgotten when a setting changes (``forget``)."""

    def remember(func: Callable[..., T]) -> _lru_cache_wrapper[T]:
        cached = lru_cache(maxsize=maxsize)(func)
        MEMOS.append(cached)
        return cached

    return remember


@receiver(setting_changed)
def forget(**kwargs: Any) -> None:
    """Drop every memo: a test changed the languages, the catalogues or the static files' URL."""
    for cached in MEMOS:
        cached.cache_clear()
