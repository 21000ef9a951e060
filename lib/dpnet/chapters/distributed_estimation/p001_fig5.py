"""Paper 001, Figure 5: sample paths of online learning (Algorithm 4) under Signal DP, and the slopes of
its errors against the exact second moments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from dpnet import estimation as est
from dpnet.chapters.distributed_estimation._common import sizes
from dpnet.chapters.distributed_estimation.p001_fig3 import (
    SamplePaths,
    _windows,
    sample_paths,
    sample_paths_cost,
    slope_rows,
)
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref

if TYPE_CHECKING:
    from dpnet.chapters.distributed_estimation.p001_fig2 import Networks

__all__ = ["DATA_DRAWS", "cost", "online_signal"]

#: Draws of the German signals whose root-mean-square error the German slope checks fit (a choice of this
#: book). One path's slope over [100, 1000] scatters by about 0.1 between draws of the data (its slow
#: modes carry few degrees of freedom), so a single path cannot test the exact slope within ±0.1; the
#: root mean square over 30 draws scatters by about 0.02.
DATA_DRAWS: Final = 30
#: Seconds per agent, round and data draw of :func:`~dpnet.estimation.ol_signal_rms_paths` (measured).
_DRAW_SECONDS: Final = 2.0e-8


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`online_signal`
    (:func:`~dpnet.chapters.distributed_estimation.p001_fig3.sample_paths_cost`, plus ``2·10⁻⁸·n·T·30``
    seconds for the German households' 30 data draws)."""
    paths = sample_paths_cost(values, "p001-fig5")
    n_T = sizes(values)
    extra = sum(_DRAW_SECONDS * n * T * DATA_DRAWS for d, (n, T) in n_T.items() if d == "german_households")
    return Cost(seconds=paths.seconds + extra, kept=paths.kept)


def _over_data_draws(
    P: Parameters, nets: Networks, paths: SamplePaths, rows: Sequence[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The German check rows refitted to the root mean square over :data:`DATA_DRAWS` draws of the signals
    (same windows and exact slopes), and those rows for the slopes table."""
    name = "german_households"
    if name not in nets.data:
        return list(rows), []
    data = nets.data[name]
    windows = _windows(paths.item, name, data.horizon)
    horizon = min(data.horizon, max(hi for _, hi in windows.values()))
    t, without, with_dp = est.ol_signal_rms_paths(
        data, paths.eps[name][0], P.rng("p001-fig5-data-draws"), delta=P.delta,
        calibration=P.calibration, n_data=DATA_DRAWS, horizon=horizon,
    )  # fmt: skip
    out, table = [], []
    for r in rows:
        if r["dataset"] != name or r.get("undefined"):
            out.append(r)
            continue
        kind, role = str(r["name"]).removeprefix("german-").rsplit("-", 1)
        lo, hi = windows[role]
        y = without if kind == "without-dp" else with_dp
        row = {**r, "quantity": f"{r['quantity']}, RMS over {DATA_DRAWS} data draws",
               "slope": est.loglog_slope(t, y, lo, hi)}  # fmt: skip
        out.append(row)
        table.append({k: v for k, v in row.items() if k != "name"})
    return out, table


def online_signal(P: Parameters, nets: Networks) -> SamplePaths:
    """Paper Figure 5: Algorithm 4 under Signal DP. On the US grid the noise leaves the error unchanged at
    every round (§5.3, "almost perfect signal DP"); the errors' slopes follow the exact second moments (on
    the German households, the slopes of the root mean square over draws of the data)."""
    paths = sample_paths(P, nets, "p001-fig5")
    table, rows = slope_rows(paths, nets, None)
    rows, extra = _over_data_draws(P, nets, paths, rows)
    if extra:
        table = {**table, "german_households": (*table["german_households"], *extra)}
    checks = ref.noise_invisible_check(
        "us-noise-invisible", "US power grid, OL-S at ε = 1 (§5.3)", paths.error_ratio("us_power_grid")
    )
    return replace(
        paths, slopes=table, checks={"p001-fig5": checks + ref.slope_checks(rows, against="reference")}
    )
