"""What every chapter package shares: its item modules, and a footprint that adds up their costs.

A chapter package (``dpnet.chapters.power_tradeoff``) holds one module per catalogue item it covers
(``p003_fig1``) and per experiment of the book's own (``rr_critical_budget_vs_n``); private modules
(``_common``) hold what several items share. Each item module defines ``cost(values) ->``
:class:`~dpnet.params.Cost`, the time and memory of its experiments at the resolved parameter values,
beside the loops it models; the package's footprint is their total (:func:`footprint`), so an item
module cannot be left out of it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from dpnet.params import Footprint, total

__all__ = ["footprint", "item_modules"]


def item_modules(package: str) -> tuple[ModuleType, ...]:
    """The item modules of a chapter package, by name: every submodule not starting with ``_``."""
    path = importlib.import_module(package).__path__
    names = sorted(info.name for info in pkgutil.iter_modules(path) if not info.name.startswith("_"))
    return tuple(importlib.import_module(f"{package}.{name}") for name in names)


def footprint(
    package: str, *, seconds: float = 0.0, memory: float = 0.0
) -> Callable[[Mapping[str, Any]], Footprint]:
    """A chapter's footprint: the :func:`~dpnet.params.total` of its item modules' ``cost`` terms.

    Parameters
    ----------
    package
        The chapter package's name (``__name__`` in its ``__init__``).
    seconds, memory
        What no item accounts for: the kernel, imports and figures (seconds), and what the run holds
        throughout (bytes).
    """

    def estimate(values: Mapping[str, Any]) -> Footprint:
        modules = item_modules(package)
        lacking = [m.__name__ for m in modules if not callable(getattr(m, "cost", None))]
        if lacking:
            raise TypeError(f"item modules without a cost(values) term: {', '.join(lacking)}")
        return total((m.cost(values) for m in modules), seconds=seconds, memory=memory)

    return estimate
