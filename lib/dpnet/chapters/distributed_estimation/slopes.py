"""The book's table ``slopes``: the fitted rates of paper Figures 3, 5 and 6 in one table."""

from __future__ import annotations

import math
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

    def glue_values(self) -> dict[str, float]:
        """The US Algorithm 4's fitted slope without DP over the early window, and the exact second
        moments' slope over it (``nan`` without the US grid): ``us_ol_s_slope``, ``us_ol_s_exact``."""
        t = self.table
        if t.empty or "us_power_grid" not in set(t.dataset):
            return {"us_ol_s_slope": math.nan, "us_ol_s_exact": math.nan}
        row = t[(t.dataset == "us_power_grid") & (t.algorithm == "OL-S") & (t.quantity == "error without DP")]
        return {"us_ol_s_slope": float(row.slope.iloc[0]), "us_ol_s_exact": float(row.exact.iloc[0])}

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
