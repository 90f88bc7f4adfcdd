"""The floors of ``docs/architecture.md``, held against every import of the code.

The document's table gives each app a floor; an app imports only apps on lower floors (or its own
module's floor-mates it does not depend on in turn), and the engine, the bots and the tournament
formats import no Django.
The project's wiring (``ROOF``) stands above them all.
The test reads the table from the document itself, so the document and the code cannot drift
apart: a new app missing from the table, or an import that climbs, fails here.
"""

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*`(\w+)/`\s*\|")
PURE = ("games/engine", "games/bots", "tournaments/formats")
# The project's wiring stands above every floor: it composes the apps' URLs and sockets.
ROOF = {"durak_site/urls.py", "durak_site/asgi.py", "durak_site/routing.py"}


def floors() -> dict[str, int]:
    """Each app's floor, as the document's table states it."""
    table = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        if match := ROW.match(line):
            table[match.group(2)] = int(match.group(1))
    return table


def modules(app: str) -> list[Path]:
    return sorted(
        path
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and str(path.relative_to(ROOT)) not in ROOF
    )


def imported(path: Path) -> set[str]:
    """The top-level packages a module imports, at any depth of its code."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def app_imports(table: dict[str, int]) -> dict[str, dict[str, list[str]]]:
    """For each app, the other apps it imports and the modules that do."""
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for app in table:
        for path in modules(app):
            for name in imported(path) & table.keys() - {app}:
                edges[app][name].append(str(path.relative_to(ROOT)))
    return edges


def test_every_app_of_the_project_has_a_floor() -> None:
    table = floors()
    apps = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests"}
    assert apps - table.keys() == set(), "apps missing from docs/architecture.md's floors"
    assert table.keys() - apps == set(), "floors naming an app that does not exist"


def test_apps_import_only_downwards() -> None:
    table = floors()
    climbing = [
        f"{app} (floor {table[app]}) imports {other} (floor {table[other]}) in {', '.join(paths)}"
        for app, targets in app_imports(table).items()
        for other, paths in targets.items()
        if table[other] > table[app]
    ]
    assert climbing == []


def test_no_two_apps_import_each_other() -> None:
    edges = app_imports(floors())
    both_ways = sorted(
        {tuple(sorted((a, b))) for a, targets in edges.items() for b in targets if a in edges.get(b, {})}
    )
    assert both_ways == []


def test_the_site_never_imports_the_tools() -> None:
    edges = app_imports(floors())
    assert [app for app, targets in edges.items() if "tools" in targets] == []


def test_the_engine_the_bots_and_the_formats_are_pure_python() -> None:
    impure = [
        str(path.relative_to(ROOT))
        for folder in PURE
        for path in sorted((ROOT / folder).rglob("*.py"))
        if imported(path) & {"django", "channels", "celery", "durak_site"}
    ]
    assert impure == []
