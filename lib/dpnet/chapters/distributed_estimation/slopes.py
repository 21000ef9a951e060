"""The book's table ``slopes``: the fitted rates of paper Figures 3, 5 and 6 in one table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dpnet.chapters.distributed_estimation.p001_fig3 import SamplePaths
from dpnet.params import Cost
from dpnet.results import Check

__all__ = ["Slopes", "cost", "slope_table"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing to count: :func:`slope_table` gathers rows the sample-path figures fitted (negligible)."""
    return Cost()


@dataclass(frozen=True)
class Slopes:
    """The fitted rates of Figures 3, 5 and 6 in one table."""

    table: pd.DataFrame
    paper_setting: bool = True

    @property
    def checks(self) -> Mapping[str, list[Check]]:
        return {}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    def metrics(self) -> dict[str, Any]:
        return {"slopes": self.table.to_dict("records")}

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"slopes": self.table}


def slope_table(mvue: SamplePaths, signal: SamplePaths, network: SamplePaths) -> Slopes:
    """The German MVUE rate (Figure 3), then per dataset the slopes of Figures 5 and 6."""
    rows = list(mvue.slopes.get("german_households", ()))
    for name in signal.names:
        rows += [*signal.slopes.get(name, ()), *network.slopes.get(name, ())]
    return Slopes(pd.DataFrame(rows))
