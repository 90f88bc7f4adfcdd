"""The site's date formats per language (``FORMAT_MODULE_PATH``): what Django's locale formats do
not give as the club's readers expect. Anything not named here falls back to Django's own.

Dates for people go through these names (``|date:"DATE_FORMAT"``), never a pattern written in a
template, so that Russian reads "1 декабря 2026 г." and "01.12.2026", and English "1 Dec 2026".
"""
