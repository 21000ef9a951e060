"""What several items of Chapter 6 share: the run's sizes, its paper settings and the deviations.

Private to the package: the item modules import it, never the reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpnet import estimation as est
from dpnet.params import Parameters
from dpnet.reference import estimation as ref

#: Why a check about a dataset is undefined when the run leaves the dataset out.
ABSENT = "the dataset is not in this run"


def sizes(values: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """Dataset → (nodes ``n``, rounds ``T``) of a run, from its parameter values, in the run's order:
    4941 nodes on the US grid and 969 households; ``T`` is ``horizon``, or the paper's 100 and 1096."""
    names = [values["dataset"]] if isinstance(values["dataset"], str) else list(values["dataset"])
    known: dict[str, Mapping[str, Any]] = {
        "us_power_grid": est.datasets.US_GRID,
        "german_households": est.datasets.GERMAN,
    }
    horizon = values["horizon"]
    return {d: (known[d]["n"], known[d]["horizon"] if horizon == "paper" else horizon) for d in names}


def paths_setting(P: Parameters) -> bool:
    """Whether the run uses the paper's horizon and δ (the sample paths' setting)."""
    return P.is_paper("horizon", "delta")


def deviations(item: str) -> tuple[tuple[str, str, str], ...]:
    """The documented deviations of an item from the paper: ``(item, title, note)``."""
    return tuple((item, title, note) for title, note in ref.ESTIMATION_DEVIATIONS[item])
