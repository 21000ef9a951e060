"""The library modules a piece of code imports, transitively: what a chapter's results depend on.

A chapter's fingerprint (``dpnet.book.fingerprint``) hashes the library files its code can
execute, so that editing a module a chapter never imports does not re-run it. The imports are read
statically, with :mod:`ast`: every ``import dpnet…`` and ``from dpnet… import …`` anywhere in a
module (inside functions too), and the relative imports of the package's own modules. Importing
``dpnet.a.b`` also runs ``dpnet/__init__.py`` and ``dpnet/a/__init__.py``, so parent packages count.
A module imported by a computed name (:func:`importlib.import_module`) is invisible to this reading:
the caller adds it (a chapter's own module, which ``dpnet.chapters.start`` imports by name).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

__all__ = ["imported_names", "module_files"]

PACKAGE = "dpnet"
_ROOT = Path(__file__).resolve().parent


def imported_names(source: str, module: str = "") -> set[str]:
    """The dotted names of the ``dpnet`` modules (or module attributes) that ``source`` imports.

    Parameters
    ----------
    source
        Python source code.
    module
        The dotted name of the module ``source`` is (for its relative imports); empty for a script
        or notebook.

    Returns
    -------
    set of str
        ``"dpnet.power"`` for ``import dpnet.power``; ``"dpnet.sweep.Stream"`` for ``from dpnet.sweep
        import Stream`` (:func:`module_files` keeps the longest prefix that is a module).
    """
    names: set[str] = set()
    package = module.rsplit(".", 1)[0] if module else ""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in names if name == PACKAGE or name.startswith(PACKAGE + ".")}


def _file(name: str) -> Path | None:
    """The file of library module ``name`` (``dpnet.a.b``), or None when it names no module."""
    relative = Path(*name.split(".")[1:])
    for candidate in (_ROOT / relative / "__init__.py", (_ROOT / relative).with_suffix(".py")):
        if candidate.name != ".py" and candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    parts = path.relative_to(_ROOT).with_suffix("").parts
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def module_files(names: Iterable[str]) -> list[Path]:
    """The files of the library modules ``names`` import, transitively, with their parent packages.

    Parameters
    ----------
    names
        Dotted names as :func:`imported_names` returns them (a name that is a module attribute stands
        for its module).

    Returns
    -------
    list of Path
        Sorted, without repeats.
    """
    seen: set[Path] = set()
    pending = list(names)
    while pending:
        name = pending.pop()
        parts = name.split(".")
        for stop in range(1, len(parts) + 1):  # every prefix that is a module: the parents too
            path = _file(".".join(parts[:stop]))
            if path is None or path in seen:
                continue
            seen.add(path)
            module = _module_name(path) + (".__init__" if path.name == "__init__.py" else "")
            pending.extend(imported_names(path.read_text(encoding="utf-8"), module))
    return sorted(seen)
