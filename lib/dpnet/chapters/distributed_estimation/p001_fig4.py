"""Paper 001, Figure 4: sample paths of the MVUE (Algorithm 3) under Network DP, checked against
Figure 3 (Signal DP at the same ε) and the independent numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dpnet import estimation as est
from dpnet.chapters.distributed_estimation.p001_fig3 import SamplePaths, sample_paths, sample_paths_cost
from dpnet.networks import neighbour_weights
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref

if TYPE_CHECKING:
    from dpnet.chapters.distributed_estimation.p001_fig2 import Networks

__all__ = ["cost", "mvue_network"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Time and memory of :func:`mvue_network`
    (:func:`~dpnet.chapters.distributed_estimation.p001_fig3.sample_paths_cost`)."""
    return sample_paths_cost(values, "p001-fig4")


def mvue_network(P: Parameters, nets: Networks, signal: SamplePaths) -> SamplePaths:
    """Paper Figure 4: Algorithm 3 under Network DP, checked against Figure 3 (Signal DP at the same ε) and
    the independent numbers; which term sets the noise (neighbour weights or smooth sensitivity); and the
    caption's claim that privacy costs the German households much at ε = 1 (with Figure 3's noise gains)."""
    paths = replace(sample_paths(P, nets, "p001-fig4"), gains=signal.gains)
    values: dict[str, dict[str, float] | None] = dict.fromkeys(("us_power_grid", "german_households"))
    for name in nets.names:
        data, eps = nets.data[name], paths.eps[name][0]
        cod, cop, te = paths.final(name)
        from_sensitivity = est.sensitivity_sets_scale(
            data.signals[:, 0],
            eps,
            delta=P.delta,
            a=neighbour_weights(data.weights),
            calibration=paths.calibrations[0],
        )  # type: ignore[arg-type]
        values[name] = {"cop": float(cop[0]), "te": float(te[0]), "cod": cod,
                        "sensitivity_share": float(from_sensitivity.mean()),
                        "weight_share": float(1.0 - from_sensitivity.mean())}  # fmt: skip
        if name == "us_power_grid":  # Figure 3 runs the US grid at Figure 4's ε
            values[name]["signal_cop"] = float(signal.final(name)[1][0])  # type: ignore[index]
    checks = ref.mvue_network_checks(
        values["us_power_grid"], values["german_households"], published=paths.paper_setting
    )
    german = "german_households" in nets.data
    checks += ref.privacy_cost_check(
        "german-high-cost", "German households, MVUE-N at ε = 1 (Figure 4's caption)",
        paths.privacy_rms(nets, "german_households", 1.0, P.delta),
        nets.data["german_households"].sigma if german else None,
    )  # fmt: skip
    return replace(paths, checks={"p001-fig4": checks})
