"""Every check is named where it is built: a badge finds its claim by name, never by position.

The checks of the reference layer and of the chapters' items are :class:`dpnet.results.Check` s built
with their name. A list of names zipped onto checks built elsewhere
(``[c._replace(name=n) for c, n in zip(checks, ["collapse", "slope-n"])]``) would put a badge on the
wrong claim the day the checks come in another order; this reading of the sources refuses it.
(:meth:`dpnet.results.Results.checks` refuses an unnamed check at run time, and
``tests/test_results.py`` shows that a badge keeps its claim whatever the order of the checks.)
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

LIB = Path(__file__).resolve().parents[1] / "lib" / "dpnet"
SOURCES = sorted([*(LIB / "reference").rglob("*.py"), *(LIB / "chapters").rglob("*.py")])


def _called(node: ast.AST) -> str:
    if not isinstance(node, ast.Call):
        return ""
    return node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")


def _name_of(call: ast.Call) -> ast.expr | None:
    """The name argument of ``Check(...)`` or of ``check._replace(name=...)``."""
    keyword = next((k.value for k in call.keywords if k.arg == "name"), None)
    if keyword is not None or _called(call) != "Check":
        return keyword
    return call.args[3] if len(call.args) > 3 else None


def _targets(node: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def naming_problems(source: str, where: str) -> list[str]:
    """The unnamed checks, and the checks named from a sequence zipped onto them, in ``source``."""
    problems: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if _called(node) == "Check":
            name = _name_of(node)
            if name is None or (isinstance(name, ast.Constant) and not name.value):
                problems.append(f"{where}:{node.lineno}: a Check built without its name")
        if isinstance(node, ast.For):
            loops = [(node.target, node.iter)]
        else:
            loops = [(g.target, g.iter) for g in getattr(node, "generators", ())]
        for target, iterator in loops:
            if _called(iterator) != "zip":
                continue
            bound = _targets(target)
            names_listed = any(_string_list(a) for a in iterator.args)  # zip(..., ["slope-n", ...])
            for call in ast.walk(node):
                called = _called(call)
                if called in ("Check", "_replace"):
                    name = _name_of(call)
                    named_here = isinstance(name, ast.Name) and name.id in bound
                elif names_listed and "check" in called.lower():  # a helper that builds a check
                    named_here = any(isinstance(a, ast.Name) and a.id in bound for a in call.args)
                else:
                    named_here = False
                if named_here:
                    problems.append(f"{where}:{call.lineno}: a check named from a sequence zipped onto it")
    return problems


def _string_list(node: ast.expr) -> bool:
    """A list or tuple of two or more string literals (names written as a list)."""
    return (
        isinstance(node, (ast.List, ast.Tuple))
        and len(node.elts) > 1
        and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    )


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(LIB)) for p in SOURCES])
def test_every_check_is_named_where_it_is_built(path: Path) -> None:
    assert naming_problems(path.read_text(encoding="utf-8"), str(path.relative_to(LIB))) == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("Check('claim', True, '')", "built without its name"),
        ("Check('claim', True, '', '')", "built without its name"),
        ("[Check(c, p, d, n) for (c, p, d), n in zip(triples, ['a', 'b'])]", "zipped onto it"),
        ("[c._replace(name=n) for c, n in zip(checks, names)]", "zipped onto it"),
        ("for (c, p, d), n in zip(triples, names):\n    out.append(Check(c, p, d, n))", "zipped onto it"),
        ("[_range_check(label, x[v], n) for v, n in zip(SLOPES, ['slope-n', 'slope-w'])]", "zipped onto it"),
    ],
)
def test_an_unnamed_or_zipped_check_is_found(source: str, found: str) -> None:
    assert any(found in p for p in naming_problems(source, "x.py"))


@pytest.mark.parametrize(
    "source",
    [
        "Check('claim', True, '', 'below-one')",
        "Check('claim', True, name=f'slope-{n}')",
        "[Check(f'{arm} log HR', ok, '', NAMES[arm]) for arm in arms]",
        "for row, cal in zip(axes, ('paper', 'authors_code')):\n    row.plot(cal)",
        "for c, b in zip(claims, bounds):\n    out.append(Check(c, x < b, '', f'below-{b}'))",
    ],
)
def test_a_named_check_and_other_zips_pass(source: str) -> None:
    assert naming_problems(source, "x.py") == []


def test_reordering_a_reference_function_s_claims_keeps_each_badge_on_its_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The case the old code got wrong: E4's slope claims come in the key order of a dict, and the chapter
    named them by position. Reversing that dict now reverses the list, and every name keeps its claim."""
    from dpnet.reference import recommender

    constants = {"a": 15.0, "b": 20.0}
    slopes = {v: (lo + hi) / 2 for v, (lo, hi) in recommender.MAXSENSE_SLOPES.items()}
    before = recommender.collapse_checks(constants, slopes)
    reversed_slopes = dict(reversed(list(recommender.MAXSENSE_SLOPES.items())))
    monkeypatch.setattr(recommender, "MAXSENSE_SLOPES", reversed_slopes)
    after = recommender.collapse_checks(constants, slopes)
    assert [c.name for c in after] != [c.name for c in before], "the reordering must reorder the list"
    assert {c.name: c for c in after} == {c.name: c for c in before}
    variable = {
        c.name: c.claim.split(" in log ")[1].split(" ")[0] for c in after if c.name.startswith("slope-")
    }
    assert variable == {"slope-n": "N", "slope-w": "w", "slope-eps": "ε̂"}
