"""Paper 001, Figure 5: sample paths of online learning (Algorithm 4) under Signal DP, and the slopes of
its errors against the exact second moments.
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

__all__ = ["cost", "online_signal"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`online_signal`
    (:func:`~dpnet.chapters.distributed_estimation.p001_fig3.sample_paths_cost`)."""
    return sample_paths_cost(values, "p001-fig5")


def online_signal(P: Parameters, nets: Networks) -> SamplePaths:
    """Paper Figure 5: Algorithm 4 under Signal DP; its error's slopes against the exact second moments."""
    paths = sample_paths(P, nets, "p001-fig5")
    table, rows = slope_rows(paths, nets, None)
    return replace(paths, slopes=table, checks={"p001-fig5": ref.slope_checks(rows, against="reference")})
