"""Russian dates as Russian readers write them: the month in the genitive with "г." ("1 декабря
2026 г."), digits with dots for short dates ("01.12.2026"), a 24-hour clock. Stated here rather than
left to Django's locale so that a change there cannot bring back "1 Дек 2026"."""

DATE_FORMAT = "j E Y г."
DATETIME_FORMAT = "j E Y г., H:i"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
TIME_FORMAT = "H:i"
