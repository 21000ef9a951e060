"""Paper 001, §5.2: "the resulting algorithms are (ε, δ)-DP". What the smooth-sensitivity Laplace release of
``ξ = log s`` guarantees on the readings the chapter runs on, at every ε it runs (Figures 3–7).

The experiment :func:`smooth_guarantee` measures, for each dataset and ε, how many readings have an
infinite local sensitivity (``s ≤ 1``), fall where eq. 11's ``S*`` is not β-smooth or is below the local
sensitivity, and whose release is not ``(ε, δ)``-indistinguishable from the release at an adjacent signal
(:func:`~dpnet.estimation.guarantee.guarantee_profiles`), under both calibrations; the checks read the text's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from dpnet import estimation as est
from dpnet.chapters.distributed_estimation._common import sizes
from dpnet.estimation import GuaranteeProfile
from dpnet.params import Cost, Parameters
from dpnet.reference import estimation as ref
from dpnet.results import Check

if TYPE_CHECKING:
    from dpnet.chapters.distributed_estimation.p001_fig2 import Networks

__all__ = ["SmoothGuarantee", "cost", "smooth_guarantee"]

#: Seconds per reading (sorting the readings) and per (ε, calibration) (the measured δ on a grid of 512
#: signals), measured on one core: 0.45 s for the 1.06 million German readings at 9 budgets × 2
#: calibrations, with the 0.3 s sort.
_READING_SECONDS, _CASE_SECONDS = 3e-7, 0.02


def cost(values: Mapping[str, Any]) -> Cost:
    """Time of :func:`smooth_guarantee`: ``3·10⁻⁷·Σ_d n_d·T_d + 0.02·2·Σ_d E_d`` seconds, with ``E_d`` the
    budgets of dataset ``d`` (Figure 7's grid and the sample paths'); it holds the sorted readings,
    ``8·n_d·T_d`` bytes, while it runs."""
    n_T = sizes(values)
    cases = sum(len(_budgets(d, values["eps_values"])) for d in n_T)
    readings = sum(n * T for n, T in n_T.values())
    return Cost(
        seconds=_READING_SECONDS * readings + _CASE_SECONDS * 2 * cases,
        peak=8.0 * max(n * T for n, T in n_T.values()),
    )


def _path_budgets(dataset: str) -> dict[float, list[str]]:
    """The ε of the sample-path figures on a dataset → the figures that use it (``"3"``, ``"4"``, …)."""
    out: dict[float, list[str]] = {}
    for item, (_, by_dataset) in ref.FIGURE_EPS.items():
        for eps in by_dataset[dataset]:
            out.setdefault(float(eps), []).append(item.removeprefix("p001-fig"))
    return out


def _budgets(dataset: str, grid: Any) -> list[float]:
    """Every ε the chapter runs on a dataset: the sample paths' and Figure 7's, ascending."""
    return sorted(set(_path_budgets(dataset)) | {float(e) for e in grid})


@dataclass(frozen=True)
class SmoothGuarantee:
    """The (ε, δ) guarantee of the Signal-DP release on each dataset's readings (paper §5.2).

    Attributes
    ----------
    delta
        The δ of the guarantee.
    profiles
        (dataset, ε, calibration) → :class:`~dpnet.estimation.guarantee.GuaranteeProfile`.
    used_in
        (dataset, ε) → the figures that run it.
    labels
        Dataset → its readable name.
    """

    delta: float
    profiles: Mapping[tuple[str, float, str], GuaranteeProfile]
    used_in: Mapping[tuple[str, float], str]
    labels: Mapping[str, str]
    checks: Mapping[str, list[Check]]
    paper_setting: bool = True

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        return ()

    @property
    def table(self) -> pd.DataFrame:
        """One row per dataset and ε: the shares of readings where each condition fails."""
        rows = []
        for (name, eps), figures in self.used_in.items():
            paper, code = self.profiles[name, eps, "paper"], self.profiles[name, eps, "authors_code"]
            rows.append({
                "network": self.labels[name], "ε": eps, "figures": figures,
                "s ≤ 1 (LS = ∞)": paper.infinite_local, "S* below LS": paper.below_local,
                "S* not β-smooth": paper.not_smooth, "δ exceeded (text)": paper.exceeded,
                "δ exceeded (code)": code.exceeded, "fails below s (text; 0 none, inf all)": paper.threshold,
            })  # fmt: skip
        return pd.DataFrame(rows)

    def share(self, dataset: str, eps: float, key: str, calibration: str = "paper") -> float:
        """One share of a profile (``nan`` when the run lacks the dataset or the ε)."""
        profile = self.profiles.get((dataset, float(eps), calibration))
        return float("nan") if profile is None else float(getattr(profile, key))

    def metrics(self) -> dict[str, Any]:
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        return {"p001-sec5-2": self.table}


def smooth_guarantee(P: Parameters, nets: Networks) -> SmoothGuarantee:
    """The guarantee profiles of every dataset's readings at every ε the chapter runs, both calibrations,
    and the checks of §5.2 under the text's."""
    profiles: dict[tuple[str, float, str], GuaranteeProfile] = {}
    used_in: dict[tuple[str, float], str] = {}
    exceeded: dict[str, dict[str, list[tuple[float, float]]] | None] = dict.fromkeys(est.DATASETS)
    for name in nets.names:
        paths = _path_budgets(name)
        budgets = _budgets(name, P.eps_values)
        found = est.guarantee_profiles(nets.data[name].signals, budgets, delta=P.delta)
        for (eps, cal), profile in found.items():
            profiles[name, eps, cal] = profile
        for eps in budgets:
            figures = paths.get(eps, []) + (["7"] if eps in {float(e) for e in P.eps_values} else [])
            used_in[name, eps] = ", ".join(sorted(set(figures)))
        exceeded[name] = {
            "paths": [(eps, profiles[name, eps, "paper"].exceeded) for eps in sorted(paths)],
            "fig7": [(float(eps), profiles[name, float(eps), "paper"].exceeded) for eps in P.eps_values],
        }
    labels = {n: nets.data[n].label for n in nets.names}
    # (ε, δ)-DP is a worst case over the domain s > 0: measure the release at s = 1/2 at every ε run
    run_budgets = sorted({eps for (_, eps) in used_in})
    domain = [(eps, float(est.release_delta(np.array([0.5]), eps, delta=P.delta)[0])) for eps in run_budgets]
    checks = {"p001-sec5-2": ref.guarantee_checks(exceeded, domain)}
    return SmoothGuarantee(P.delta, profiles, used_in, labels, checks, P.is_paper("delta", "eps_values"))
