"""The rules page: the project's rules text (``docs/rules.md``, in Russian ``docs/rules.ru.md``)
rendered from Markdown once per language and kept for the life of the process.

Both texts have the same sections with the same explicit anchors (``## 3. A bout {#bout}``), and
every row of the table of options gets ``id="option-<name>"`` from the option's name in its first
cell, so a link such as ``/rules/#option-throw_in`` (the create-table form has one per option)
lands on the same place in either language. Wide tables scroll inside a focusable box of their own
rather than widening the page on a phone.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import markdown
from django.conf import settings
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from markdown.treeprocessors import Treeprocessor

DOCS = Path(settings.BASE_DIR) / "docs"
#: An option's name as the first cell of the options table writes it (``throw_in``).
OPTION_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
#: A section heading of the rendered text, with its anchor.
HEADING = re.compile(r'<h(?P<level>[23]) id="(?P<anchor>[^"]+)">.*?</h(?P=level)>', re.S)
#: The first column's heading of a table whose rows get anchors, in either text, and their prefix:
#: ``option-throw_in`` in the table of options, ``variant-circle`` in the table of variants.
ROW_ANCHORS = {"option": "option", "параметр": "option", "variant": "variant", "вариант": "variant"}


@dataclass(frozen=True, slots=True)
class Section:
    """An entry of the page's table of contents."""

    anchor: str
    title: str
    level: int


@dataclass(frozen=True, slots=True)
class RulesPage:
    title: str
    html: SafeString
    sections: tuple[Section, ...]
    anchors: frozenset[str]


class RulesTreeprocessor(Treeprocessor):
    """Anchors for the rows of the tables of options and variants, and a scrolling box around
    every table."""

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for index, child in enumerate(list(parent)):
                if child.tag != "table":
                    continue
                heading = child.find("thead/tr/th")
                label = (heading.text or "").strip().lower() if heading is not None else ""
                prefix = ROW_ANCHORS.get(label)
                for row in child.iter("tr") if prefix else ():
                    first = row.find("td")
                    code = first.find("code") if first is not None else None
                    if code is not None and code.text and OPTION_NAME.match(code.text):
                        row.set("id", f"{prefix}-{code.text}")
                box = etree.Element("div", {"class": "table-scroll rules-table", "tabindex": "0"})
                parent.remove(child)
                box.append(child)
                parent.insert(index, box)


class RulesExtension(markdown.Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.treeprocessors.register(RulesTreeprocessor(md), "durak_rules", 5)


def source_path(language: str) -> Path:
    """The rules text in ``language`` (English when there is no translation)."""
    translated = DOCS / f"rules.{language}.md"
    return translated if language != "en" and translated.exists() else DOCS / "rules.md"


@cache
def rules_page(language: str) -> RulesPage:
    """The rendered rules in ``language`` (``en`` or ``ru``), rendered once per process."""
    converter = markdown.Markdown(extensions=["tables", "attr_list", "toc", RulesExtension()])
    html = converter.convert(source_path(language).read_text(encoding="utf-8"))
    tokens = getattr(converter, "toc_tokens", [])
    title = tokens[0]["name"] if tokens else ""
    sections: list[Section] = []

    def walk(items: list[dict[str, object]]) -> None:
        for item in items:
            level = int(str(item["level"]))
            if level in (2, 3):
                sections.append(Section(str(item["id"]), _plain(str(item["name"])), level))
            children = item.get("children")
            if isinstance(children, list):
                walk(children)

    walk(tokens)
    # The page has its own <h1>: the text's first heading would be a second one.
    html = re.sub(r"^<h1[^>]*>.*?</h1>\s*", "", html, count=1, flags=re.S)
    anchors = frozenset(re.findall(r'\sid="([^"]+)"', html))
    # Safe: the text is the project's own file, not anything a user wrote.
    return RulesPage(_plain(title), mark_safe(html), tuple(sections), anchors)


def _plain(name: str) -> str:
    """A heading's text as the toc extension gives it, without its entities for ``&``."""
    return name.replace("&amp;", "&")


def with_lessons(html: SafeString, lessons: dict[str, list[tuple[str, str]]]) -> SafeString:
    """The rules' ``html`` with a line under each section heading whose anchor ``lessons`` names,
    linking the lessons that teach it (``(url, title)`` pairs, in the viewer's language)."""

    def heading(match: re.Match[str]) -> str:
        links = lessons.get(match.group("anchor"))
        if not links:
            return match.group(0)
        line = format_html(
            '<p class="rules-lessons">{} {}</p>',
            _("Learn it:"),
            format_html_join(", ", '<a href="{}">{}</a>', links),
        )
        return match.group(0) + line

    # Safe: the headings are the project's own text, and every inserted name is escaped.
    return mark_safe(HEADING.sub(heading, html))
