"""Paper 002, experiment E5 (the book's), continued: more than two clusters. MaxSense on M-asym3 (one user
type, three clusters liked with probability 0.9, 0.5 and 0.1) and Pairwise-Preference on M-sym3 (three user
types, each liking its own cluster with probability 0.9 and the others with 0.1), N = 99, ε = 1, with Thm
3.5's conditions on M-sym3's expected matrix."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import (
    E4_GRID,
    EPS_REF,
    MATRIX_ENTRY_BYTES,
    Refined,
    ms_grid,
    pp_seconds,
    refined_curves,
    refined_points,
    sweep_curves,
)
from dpnet.params import Cost, Parameters
from dpnet.recommender.conditions import PairwiseSpectrum, pairwise_spectrum
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: The three-cluster instances: N (three equal clusters), MaxSense's w.
THREE_N, THREE_W = 99, 10
#: Pairwise-Preference's range of U/(N ln N/ε̂²) and its (first points, rounds) by mode.
THREE_PP_GRID: Refined = (4.0, 512.0, {"quick": (3, 2), "full": (5, 2)})
#: Measured on this 2-core machine (one core): one MaxSense recovery with three clusters (the exact 1-D
#: k-means over splits dominates), and a Pairwise-Preference one's excess over two clusters (k-means).
MS3_SECONDS = 2e-3
PP3_FACTOR = 1.5


def m_asym3(n_items: int, w: int) -> rc.BlockModel:
    """M-asym3: one user type, three equal clusters liked with probability 0.9, 0.5 and 0.1."""
    third = 1 / 3
    return rc.BlockModel((1.0,), (third, third, third), ((0.9, 0.5, 0.1),), n_items, w)


def m_sym3(n_items: int, w: int) -> rc.BlockModel:
    """M-sym3: three equal user types, each liking its own cluster (0.9) and not the others (0.1)."""
    third = 1 / 3
    b = tuple(tuple(0.9 if k == l else 0.1 for l in range(3)) for k in range(3))  # noqa: E741
    return rc.BlockModel((third,) * 3, (third,) * 3, b, n_items, w)


def cost(values: Mapping[str, Any]) -> Cost:
    """The three-cluster runs' time: ``trials`` recoveries of MaxSense at the 15 points of its grid, and
    ``pp_trials`` of Pairwise-Preference at each point of its adaptive curve; each of the latter holds its
    ``N × N`` matrix."""
    pp = (
        refined_points(THREE_PP_GRID, values["mode"]) * values["pp_trials"] * PP3_FACTOR * pp_seconds(THREE_N)
    )
    seconds = E4_GRID[2] * values["trials"] * MS3_SECONDS + pp
    return Cost(seconds=seconds, peak=MATRIX_ENTRY_BYTES * THREE_N**2)


@dataclass(frozen=True)
class ThreeClusters:
    """MaxSense on M-asym3 and Pairwise-Preference on M-sym3 (three clusters), and Thm 3.5's conditions."""

    maxsense: rc.Setting
    maxsense_u90: float
    pairwise: rc.Setting
    pairwise_u90: float
    theta: float
    checks: Mapping[str, list[Check]]
    #: Its sizes are the book's: there is no paper setting to leave.
    paper_setting = True

    @property
    def predicted(self) -> float:
        """MaxSense's Gaussian prediction (three clusters: two thresholds)."""
        return self.maxsense.predicted_u90()

    @property
    def proof_users(self) -> float:
        """The proof of Thm 5.1's sufficient number of users, ``N^{−d} = 0.1``."""
        m = self.maxsense.model
        d = math.log(1 / ref.THM51_FAILURE) / math.log(m.n_items)
        return rc.thm51_users(m.n_items, m.w, EPS_REF, rc.delta_min(m, self.theta), self.theta, d)

    @property
    def constant(self) -> float:
        """Pairwise-Preference's ``U_90 ε̂²/(N ln N)``."""
        return self.pairwise_u90 / rc.pairwise_scale(THREE_N, EPS_REF)

    @property
    def spectrum(self) -> PairwiseSpectrum:
        """Thm 3.5's conditions on M-sym3's expected matrix."""
        return pairwise_spectrum(self.pairwise.model, EPS_REF)

    @property
    def table(self) -> pd.DataFrame:
        """Both algorithms: model, U_90, and what it is compared with."""
        return pd.DataFrame(
            [
                {"algorithm": "MaxSense", "model": "M-asym3", "N": THREE_N, "w": THREE_W,
                 "U_90": self.maxsense_u90, "Gaussian prediction": self.predicted,
                 "Thm 5.1 proof (N^-d = 0.1)": self.proof_users, "U_90 ε̂²/(N ln N)": math.nan},
                {"algorithm": "Pairwise-Preference", "model": "M-sym3", "N": THREE_N, "w": THREE_N,
                 "U_90": self.pairwise_u90, "Gaussian prediction": math.nan,
                 "Thm 5.1 proof (N^-d = 0.1)": math.nan, "U_90 ε̂²/(N ln N)": self.constant},
            ]
        )  # fmt: skip

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """Thm 3.5's conditions exclude the symmetric three-cluster model Pairwise-Preference recovers."""
        title = "Thm 3.5's conditions: neither necessary nor sufficient as stated"
        return (("p002-e5", title, "note-rec-nondegenerate"),)

    def metrics(self) -> dict[str, Any]:
        """None: the chapter glues what it reports."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the chapter shows :attr:`table` (``p002-e5-three``)."""
        return {}


def three_clusters(P: Parameters) -> ThreeClusters:
    """MaxSense on M-asym3 (stream ``p002-e5/three-maxsense``, ``trials`` runs at the 15 points of its grid)
    and Pairwise-Preference on M-sym3 (stream ``p002-e5/three-pairwise``, adaptive), N = 99, ε = 1."""
    ms = rc.Setting("maxsense", m_asym3(THREE_N, THREE_W), EPS_REF, theta=P.theta)
    _, (ms_u,) = sweep_curves(P, "p002-e5/three-maxsense", [ms], [ms_grid(ms)], P.trials, "MaxSense, L = 3")
    pp = rc.Setting("pairwise", m_sym3(THREE_N, THREE_N), EPS_REF)
    scale = rc.pairwise_scale(THREE_N, EPS_REF)
    span = [(THREE_PP_GRID[0] * scale, THREE_PP_GRID[1] * scale)]
    _, (pp_u,) = refined_curves(P, "p002-e5/three-pairwise", [pp], span, THREE_PP_GRID, "PP, L = 3")
    out = ThreeClusters(ms, ms_u, pp, pp_u, P.theta, {})
    checks = ref.three_cluster_checks(ms_u, out.predicted, out.proof_users, pp_u)
    return replace(out, checks={"p002-e5": checks})
