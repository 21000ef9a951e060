"""Paper 001, Figure 6: sample paths of online learning (Algorithm 5) under Network DP; its errors fall
as t^(−1/2), and on the US grid Algorithms 3–5 without DP come in the paper's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dpnet.chapters.distributed_estimation.p001_fig3 import (
    SamplePaths,
    sample_paths,
    sample_paths_cost,
    slope_rows,
)
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref

if TYPE_CHECKING:
    from dpnet.chapters.distributed_estimation.p001_fig2 import Networks

__all__ = ["cost", "online_network"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`online_network`
    (:func:`~dpnet.chapters.distributed_estimation.p001_fig3.sample_paths_cost`)."""
    return sample_paths_cost(values, "p001-fig6")


def online_network(P: Parameters, nets: Networks, mvue: SamplePaths, signal: SamplePaths) -> SamplePaths:
    """Paper Figure 6: Algorithm 5 under Network DP. On the US grid it costs noticeably more than Algorithm 4
    under Signal DP (``signal``, Figure 5, at the same ε); slope −1/2; and on the US grid the errors without
    DP of Algorithms 3 (``mvue``, Figure 3), 4 and 5."""
    paths = sample_paths(P, nets, "p001-fig6")
    table, rows = slope_rows(paths, nets, ref.OL_NETWORK_SLOPE)
    errors = None
    if "us_power_grid" in nets.data:
        errors = {"OL-S": signal.final("us_power_grid")[0], "OL-N": paths.final("us_power_grid")[0],
                  "MVUE": mvue.final("us_power_grid")[0]}  # fmt: skip
    ratios = {"OL-N": paths.error_ratio("us_power_grid"), "OL-S": signal.error_ratio("us_power_grid")}
    rise = {k: None if r is None else float(r[-1] - 1.0) for k, r in ratios.items()}
    checks = ref.noticeable_cost_check(rise["OL-N"], rise["OL-S"]) + ref.slope_checks(rows)
    checks += ref.us_nonprivate_checks(errors, published=paths.paper_setting)
    return replace(paths, slopes=table, checks={"p001-fig6": checks})
