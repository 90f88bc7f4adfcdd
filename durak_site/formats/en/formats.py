"""English dates: day, short month, year ("1 Dec 2026, 14:05"), the same everywhere on the site and
never ambiguous between British and American readers (Django's own short format is m/d/Y)."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
