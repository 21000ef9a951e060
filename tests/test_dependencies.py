"""Which library modules a chapter depends on: its fingerprint follows its imports, and only them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import dpnet
from dpnet import book, dependencies
from dpnet.dependencies import imported_names, module_files

LIB = Path(dpnet.__file__).resolve().parent


def test_imported_names_reads_every_form_of_import() -> None:
    source = (
        "import numpy\nimport dpnet.power as pw\nfrom dpnet.sweep import Stream\n"
        "def f():\n    from dpnet import plotting\n"
        "from . import catalogue\nfrom ..errors import ParameterError\n"
    )
    names = imported_names(source, "dpnet.reference.dilemma")
    assert {"dpnet.power", "dpnet.sweep.Stream", "dpnet.plotting", "dpnet.reference.catalogue"} <= names
    assert "dpnet.errors.ParameterError" in names and "numpy" not in names


def test_module_files_follow_imports_transitively_with_parents() -> None:
    files = {p.relative_to(LIB).as_posix() for p in module_files(["dpnet.power"])}
    assert {"__init__.py", "power.py", "sweep.py", "errors.py"} <= files  # power imports sweep and errors
    assert not any(f.startswith(("funcpert/", "recommender/", "survival/")) for f in files)


def test_a_package_counts_with_what_its_init_imports() -> None:
    files = {p.relative_to(LIB).as_posix() for p in module_files(["dpnet.reference"])}
    assert {"reference/__init__.py", "reference/clinical.py", "reference/_check.py"} <= files


@pytest.fixture
def library_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the library that the dependency reader reads instead of the real one."""
    copy = tmp_path / "dpnet"
    shutil.copytree(LIB, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(dependencies, "_ROOT", copy)
    return copy


def test_fingerprint_follows_the_modules_a_chapter_imports(library_copy: Path) -> None:
    chapter = book.get_chapter("power-tradeoff")
    before = book.fingerprint(chapter, {"mode": "quick"})
    (library_copy / "funcpert" / "solve.py").write_text(
        (library_copy / "funcpert" / "solve.py").read_text() + "\n# a comment\n"
    )
    assert book.fingerprint(chapter, {"mode": "quick"}) == before, "an unused module re-ran the chapter"
    (library_copy / "power.py").write_text((library_copy / "power.py").read_text() + "\n# a comment\n")
    assert book.fingerprint(chapter, {"mode": "quick"}) != before, "an edit of a used module went unseen"


def test_the_chapters_own_package_counts_with_every_item_module() -> None:
    """A chapter's fingerprint covers its package, each item module and what they share, and no other
    chapter's package."""
    files = book._library_files(book.get_chapter("functional-perturbation"))
    package = LIB / "chapters" / "functional_perturbation"
    assert {package / "__init__.py", package / "_common.py", package / "p004_e6.py"} <= set(files)
    assert set(package.glob("*.py")) <= set(files)
    assert not any(f.is_relative_to(LIB / "chapters" / "power_tradeoff") for f in files)
