"""Typed readers for environment variables.

Settings read everything through these helpers so that every variable has one place where its
spelling, type and default live; README.md lists them all.
"""

import os

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    """The variable's value, or ``default`` when it is unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    """A boolean flag; refuses values that are neither truthy nor falsy so typos do not pass."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_int(name: str, default: int) -> int:
    """An integer; an empty value means the default."""
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw else default


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list with blanks dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]
