"""The Russian catalogue is complete and compiled (a fresh machine needs no gettext).

A small .po reader is enough here: it keeps msgctxt, msgid, msgid_plural and msgstr / msgstr[n],
flags (``#, fuzzy``) and skips obsolete (``#~``) entries.
"""

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"


@dataclass
class Entry:
    fields: dict[str, str] = field(default_factory=dict)
    fuzzy: bool = False

    @property
    def key(self) -> str:
        msgid = self.fields.get("msgid", "")
        context = self.fields.get("msgctxt")
        return f"{context}\x04{msgid}" if context is not None else msgid

    @property
    def translations(self) -> list[str]:
        return [value for name, value in self.fields.items() if name.startswith("msgstr")]


def read_po(path: Path) -> list[Entry]:
    entries: list[Entry] = []
    current = Entry()
    last = ""
    for raw in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = raw.strip()
        if not line:
            if current.fields:
                entries.append(current)
            current, last = Entry(), ""
        elif line.startswith("#,") and "fuzzy" in line:
            current.fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            current.fields[last] += ast.literal_eval(line)
        else:
            name, _, value = line.partition(" ")
            last = name
            current.fields[name] = ast.literal_eval(value)
    return entries[1:]  # the first entry is the header


def test_no_untranslated_or_fuzzy_entries() -> None:
    problems = [entry.key for entry in read_po(CATALOGUE) if entry.fuzzy or not all(entry.translations)]
    assert not problems, problems


def test_compiled_catalogue_matches_the_source() -> None:
    with CATALOGUE.with_suffix(".mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    for entry in read_po(CATALOGUE):
        if "msgid_plural" in entry.fields:
            assert catalog.get((entry.key, 0)) == entry.fields["msgstr[0]"], entry.key
        else:
            assert catalog.get(entry.key) == entry.fields["msgstr"], entry.key


def test_makemessages_reads_every_string_of_the_jinja_templates() -> None:
    """``makemessages`` reads a template through Django's ``templatize``, which knows ``_("…")`` in
    a variable tag and none of Jinja2's own forms (``{% trans %}``, ``_("…", name=…)``,
    ``ngettext``): every message Jinja2 finds in ``templates/jinja2/`` must be one it reads, and
    translated."""
    from django.template import engines
    from django.utils.translation.template import templatize

    env = engines["jinja2"].env  # type: ignore[attr-defined]
    translated = {entry.key for entry in read_po(CATALOGUE) if all(entry.translations)}
    templates = sorted((ROOT / "templates" / "jinja2").rglob("*.html"))
    assert templates
    for path in templates:
        source = path.read_text(encoding="utf-8")
        in_jinja = [message for _line, _function, message in env.extract_translations(source)]
        extracted = templatize(source, str(path))
        read = {ast.literal_eval(text) for text in re.findall(r"""_\(("[^"]*"|'[^']*')\)""", extracted)}
        assert in_jinja, path
        assert set(in_jinja) == read, path
        assert read <= translated, sorted(read - translated)
