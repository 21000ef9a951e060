"""The library reference documents every public module of ``dpnet``, and only modules that exist.

The API pages (``book/api/*.md``) are written per package, so a new module needs its own
``automodule`` entry; these tests name the module that lacks one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
AUTOMODULE = re.compile(r"^\.\. automodule:: ([\w.]+)\s*$", re.MULTILINE)


def public_modules(lib: Path) -> set[str]:
    """Dotted names of the modules and packages under ``lib/dpnet``, private ones (``_x``) left out."""
    names = set()
    for path in (lib / "dpnet").rglob("*.py"):
        parts = path.relative_to(lib).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if len(parts) > 1 and not any(part.startswith("_") for part in parts):
            names.add(".".join(parts))
    return names


def documented_modules(pages: Path) -> list[str]:
    """The modules named by an ``automodule`` directive of the API pages, once per mention."""
    return [name for page in sorted(pages.rglob("*.md")) for name in AUTOMODULE.findall(page.read_text())]


def reference_problems(lib: Path, pages: Path) -> list[str]:
    """What is wrong with the reference: modules missing, documented twice, or not in the library."""
    public, documented = public_modules(lib), documented_modules(pages)
    missing, unknown = public - set(documented), set(documented) - public
    twice = {name for name in documented if documented.count(name) > 1}
    problems = [f"{name} has no automodule entry in {pages.name}/" for name in sorted(missing)]
    problems += [f"{name} is documented twice" for name in sorted(twice)]
    problems += [f"{name} is documented but not a public module" for name in sorted(unknown)]
    return problems


def test_every_public_module_has_one_reference_entry() -> None:
    assert reference_problems(ROOT / "lib", ROOT / "book" / "api") == []


def test_the_package_docstring_lists_every_top_level_module() -> None:
    import dpnet

    top = {name for name in public_modules(ROOT / "lib") if name.count(".") == 1}
    listed = set(re.findall(r":mod:`(dpnet\.\w+)`", dpnet.__doc__ or ""))
    assert sorted(top - listed) == []


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        (["dpnet.alpha"], "dpnet.pkg.beta has no automodule entry"),
        (["dpnet.alpha", "dpnet.pkg", "dpnet.pkg.beta", "dpnet.alpha"], "dpnet.alpha is documented twice"),
        (["dpnet.alpha", "dpnet.pkg", "dpnet.pkg.beta", "dpnet.gamma"], "dpnet.gamma is documented but not"),
    ],
)
def test_a_missing_twice_or_unknown_entry_is_named(tmp_path: Path, entries: list[str], problem: str) -> None:
    """On a hand-made library: each kind of mistake is caught, and private modules are not asked for."""
    package = tmp_path / "lib" / "dpnet" / "pkg"
    package.mkdir(parents=True)
    for path in ("__init__.py", "alpha.py", "_private.py", "pkg/__init__.py", "pkg/beta.py", "pkg/_gamma.py"):
        (tmp_path / "lib" / "dpnet" / path).write_text("")
    pages = tmp_path / "api"
    pages.mkdir()
    (pages / "one.md").write_text("".join(f"```{{eval-rst}}\n.. automodule:: {e}\n```\n" for e in entries))
    problems = reference_problems(tmp_path / "lib", pages)
    assert any(p.startswith(problem) for p in problems), problems
    complete = ["dpnet.alpha", "dpnet.pkg", "dpnet.pkg.beta"]
    (pages / "one.md").write_text("".join(f".. automodule:: {e}\n" for e in complete))
    assert reference_problems(tmp_path / "lib", pages) == []
