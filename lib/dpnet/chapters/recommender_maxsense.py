"""Chapter 7, ``recommender-maxsense``: private item clustering, Pairwise-Preference and MaxSense (paper
002, Banerjee, Hegde & Massoulié).

The paper is a theory paper with no numerical figure: its results are sample-complexity theorems. The
chapter turns each into an experiment, E0–E10, the book's own design. This module holds the chapter's
parameters (:data:`SCHEMA`) and one function per experiment: it takes the resolved parameters,
computes with :mod:`dpnet.recommender`, checks the outcome with :mod:`dpnet.reference.recommender`
(the ranges the book fixed before running this implementation), and returns a small frozen dataclass
that the chapter records (:meth:`dpnet.results.Results.record`), tabulates and plots.

Every random draw comes from a named stream of the chapter's seed (``SCHEMA.streams``): each Monte
Carlo sweep has its own, and a cell of a sweep (setting ``s``, grid point ``j``) draws from the child
``(s, j)``. The streams that seeded the published runs keep their integer keys, so naming them changed
no number. The book's choices where the paper is silent are module constants here and entries of the
reproduction notes (``note-rec-…``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.estimation import loglog_slope
from dpnet.params import COMMON, Footprint, Param, Parameters, Schema, budgets, choice, integer, list_of, real
from dpnet.plotting import fixed_ticks, panel_row
from dpnet.reference import recommender as ref
from dpnet.reference._check import Check

__all__ = [
    "SCHEMA",
    "Adaptive",
    "Distortion",
    "Information",
    "LowerBounds",
    "Mechanism",
    "MovieLens",
    "MultiMaxSense",
    "OneBit",
    "PairwiseRich",
    "RichVsScarce",
    "ScarceMaxSense",
    "SensingConstant",
    "Summary",
    "U90Record",
    "adaptive",
    "distortion",
    "information",
    "lower_bounds",
    "maxsense_scarce",
    "mechanism",
    "movielens",
    "multi_maxsense",
    "one_bit",
    "pairwise_rich",
    "rich_vs_scarce",
    "sensing_constant",
    "summary",
]

#: Measured costs on this 2-core machine (one core), see :func:`_footprint`.
_PP_SECONDS = (1.1e-3, 2.2e-7, 2e-10)  # one Pairwise-Preference recovery: a + b N² + c N³ (eigh, k-means)
_MS_SECONDS = (5e-4, 1e-6)  # one MaxSense recovery, aggregate simulator: a + b N
_SUBSET_SECONDS = 1e-4  # one exact w-subset recovery, per item (E4c)
_BLOCK_ITEM_SECONDS = 8e-8  # one item of one user's chosen blocks, per-user Multi-MaxSense simulator (E6)
_ONE_BIT_SECONDS = 3.1e-4  # one run of the four 1-bit schemes at every N of E7
_FIXED_SECONDS = 30.0  # kernel, E0–E2, E9, the MovieLens fit, figures


def _pp_seconds(n_items: float) -> float:
    a, b, c = _PP_SECONDS
    return a + b * n_items**2 + c * n_items**3


def _ms_seconds(n_items: float) -> float:
    a, b = _MS_SECONDS
    return a + b * n_items


def _footprint(v: Mapping[str, Any]) -> Footprint:
    """Peak memory and wall time of a run, from its parameters (see :class:`dpnet.params.Footprint`).

    Seconds, on one core: Pairwise-Preference's recoveries (``a + b N² + c N³`` each, the eigen-
    decomposition and k-means of an ``N × N`` matrix) at the points of its adaptive curves (first points
    plus one per round) in E3, E5 and E10; MaxSense's (``a + b N`` each) on its 15-point grids in E4, E4b,
    E5, E6, E8 and E10; with ``exact_simulators``, E4c's exact recoveries and E6's per-user runs
    (proportional to the items of the users' chosen blocks, ``Q N/⌊w/θ⌋`` per user, over the grid's
    multiples of the predicted U_90, summed); E7's 1-bit runs; and 30 s for the kernel, the closed-form
    experiments and the figures. Memory: 300 MB of simulator chunks and libraries, plus 48 bytes per entry
    of the largest ``N × N`` matrix (the matrix, its float copy and LAPACK's workspace).

    Calibrated on this 2-core machine (one core): a recovery of Pairwise-Preference took 3.5, 11.5 and
    49 ms at N = 100, 200 and 400, one of MaxSense 0.5 ms, one exact w-subset recovery at N = 50 5 ms,
    and the per-user Multi-MaxSense simulator 80 ns per item of a user's chosen blocks.
    """
    mode, pp_trials, trials = v["mode"], v["pp_trials"], v["trials"]
    ms_points, exact_points = E4_GRID[2], E4_EXACT_GRID[2]

    def refined(plan: Refined) -> int:
        points, rounds = plan[2][mode]
        return points + rounds

    e3 = (
        refined(E3_GRID)
        * pp_trials
        * (sum(_pp_seconds(n) for n in v["n_items"]) + (len(v["eps_values"]) + 1) * _pp_seconds(N_REF))
    )
    maxsense_settings = len(v["n_items"]) + len(v["ratings_per_user"]) + len(v["eps_values"]) + 1
    e4 = (
        ms_points
        * trials
        * (
            sum(_ms_seconds(n) for n in v["n_items"])
            + (maxsense_settings - len(v["n_items"])) * _ms_seconds(N_REF)
        )
    )
    e4b = len(E4_THETAS) * ms_points * trials * _ms_seconds(N_REF)
    w_exponent = len(E5_W_EXPONENT[mode])
    e5 = pp_trials * _pp_seconds(N_REF) * (
        len(E5_W) * refined(E5_PP_GRID) + len(E5_COMBOS) * w_exponent * refined(E5_EXPONENT_GRID)
    ) + (len(E5_W) * ms_points + 5) * trials * _ms_seconds(N_REF)
    e6 = len(Q_RULES) * len(E6_EPS[mode]) * ms_points * trials * _ms_seconds(N_REF)
    if v["exact_simulators"]:
        e4b += exact_points * trials * sum(_ms_seconds(n) + _SUBSET_SECONDS * n for n, _ in E4_EXACT_CASES)
        model, blocks = rc.m_asym(N_REF, E6_W), math.floor(E6_W / v["theta"])
        items = sum(rc.predicted_u(model, e, n_bits=q) * q * N_REF / blocks for e, q in E6_PER_USER_CASES)
        e6 += E6_PER_USER_RUNS * items * float(np.geomspace(*E4_EXACT_GRID).sum()) * _BLOCK_ITEM_SECONDS
    e8 = sum(ms_points * trials * _ms_seconds(n) for n in E8_N[mode])
    e10 = len(v["movielens_eps"]) * (
        ms_points * trials * _ms_seconds(v["movielens_items"])
        + refined(E10_PP_GRID) * v["movielens_trials"] * _pp_seconds(v["movielens_items"])
    )
    seconds = _FIXED_SECONDS + e3 + e4 + e4b + e5 + e6 + _ONE_BIT_SECONDS * v["one_bit_trials"] + e8 + e10
    largest = max([*v["n_items"], v["movielens_items"], N_REF])
    return Footprint(memory=3e8 + 48.0 * largest**2, seconds=seconds)


#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20120612),
        "n_items": Param(
            list_of(integer(ge=20, le=2000), min_len=2),
            "item counts N of the scaling sweeps (E3, E4)",
            quick=[50, 100, 200],
            full=[50, 100, 200, 400],
        ),
        "ratings_per_user": Param(
            list_of(integer(ge=2, le=50), min_len=2),
            "ratings per user w of MaxSense's w sweep (N = 100)",
            default=[5, 10, 20],
        ),
        "eps_values": Param(
            budgets(),
            "privacy levels ε of the ε sweeps (E3, E4); 'inf' is non-private",
            quick=[0.25, 1.0, 4.0, "inf"],
            full=[0.25, 0.5, 1.0, 2.0, 4.0, "inf"],
        ),
        "theta": Param(
            real(gt=0.0, le=2.0),
            "MaxSense's sensing constant θ (probes θN/w items; paper: free)",
            default=1.0,
        ),
        "trials": Param(
            integer(ge=10, le=2000), "runs per point, MaxSense and Multi-MaxSense", quick=40, full=100
        ),
        "pp_trials": Param(integer(ge=5, le=500), "runs per point, Pairwise-Preference", quick=20, full=20),
        "one_bit_trials": Param(
            integer(ge=50, le=100_000), "runs per N of the 1-bit schemes", quick=400, full=2000
        ),
        "exact_simulators": Param(
            choice(True, False),
            "also run the exact w-subset simulator (E4c) and the per-user one (E6)",
            quick=False,
            full=True,
        ),
        "movielens_items": Param(
            integer(ge=20, le=400), "most-rated MovieLens movies N kept for the fit (E10)", default=100
        ),
        "movielens_eps": Param(
            budgets(),
            "privacy levels ε of the semi-synthetic comparison (E10)",
            quick=[1.0, 4.0],
            full=[1.0, 2.0, 4.0],
        ),
        "movielens_trials": Param(
            integer(ge=5, le=500), "runs per point of Pairwise-Preference in E10", quick=6, full=20
        ),
    },
    footprint=_footprint,
    # the integer keys that seeded each experiment's draws before the streams had names
    streams={
        "p002-e0": (0,),
        "p002-e2": (2,),
        "p002-e3": (11,),
        "p002-e4": (12,),
        "p002-e4/transition": (13,),
        "p002-e4/theta": (14,),
        "p002-e4/exact-fast": (15,),
        "p002-e4/exact-subset": (16,),
        "p002-e4/means-fast": (4, 0),
        "p002-e4/means-subset": (4, 1),
        "p002-e5/pairwise": (17,),
        "p002-e5/maxsense": (18,),
        "p002-e5/exponent": (19,),
        "p002-e5/symmetric": (20,),
        "p002-e6": (21,),
        "p002-e6/independent-bits": (22,),
        "p002-e6/per-user": (23,),
        **{f"p002-e7/{scheme}": (7, j) for j, scheme in enumerate(rc.SCHEMES)},
        "p002-e8": (24,),
    },
)

#: The reference case of MaxSense (M-asym): N items, w ratings per user, budget ε.
N_REF, W_REF, EPS_REF = 100, 10, 1.0
#: Legends and annotations: the smallest font of the chapter's figures (points, at the figures' width).
SMALL = 8
#: E0: the budgets of the randomized-response table, and the bits drawn.
E0_EPS = (0.1, 1.0, 3.0)
E0_BITS = 1_000_000
#: E1: the budget, the N grid, the w of the curves, the N of the w panel and its w grid, and the fit windows.
E1_EPS = 0.5
E1_N = (1e2, 1e5, 31)
E1_W = (1, 2, 5, 10)
E1_N_W, E1_W_MAX = 10_000, 30
E1_TABLE = ((1000, 1), (1000, 5), (10_000, 2), (10_000, 10))
#: E2: item counts of the enumeration, random query sets per N, and the MaxSense-sketch grids.
E2_N = range(4, 13)
E2_RANDOM_QUERIES = 200
E2_EPS, E2_N_SKETCH = 0.5, (50, 100, 200, 400, 800, 1600)
E2_LEMMA_N = (100, 1000, 10_000)
#: Pairwise-Preference's U_90 is found adaptively (:func:`~dpnet.recommender.experiments.adaptive_curves`):
#: a range, then (first points, refining rounds) by mode.
Refined = tuple[float, float, Mapping[str, tuple[int, int]]]
#: E3: the w of the support-known case, and the range of U/(N ln N/ε̂²).
E3_SUPPORT_W = 10
E3_GRID: Refined = (2.0, 128.0, {"quick": (3, 2), "full": (5, 2)})
#: E4: the grid of U around the Gaussian prediction (from, to, points, in multiples of it), the θ of E4b,
#: the (N, w) of E4c and their grid, and the N, w and ε at which the collapse's range was fixed (the
#: pilot's configurations: N = 400 and ε = 0.25 are measured, not checked).
E4_GRID = (0.1, 4.0, 15)
E4_THETAS = (0.25, 0.5, 1.0, 2.0, 4.0)
E4_EXACT_CASES = ((50, 10), (50, 5))
E4_EXACT_GRID = (0.4, 2.5, 7)
E4_COLLAPSE_CASES = {"N": (50, 100, 200), "w": (5, 10, 20), "eps": (0.5, 1.0, 2.0, 4.0, math.inf)}
#: E4c and E6: the largest allowed ratio between two simulators' U_90 (note-rec-tolerances).
EXACT_TOLERANCE = 0.25
#: E5: the w of the crossover, its user cap, the w of the exponent fit (quick, full) and its (ε, sketch).
E5_W = (5, 10, 25, 50, 100)
E5_CAP = 1e7
#: E5: Pairwise-Preference's users across w (up to the cap), and in the exponent fit.
E5_PP_GRID: Refined = (1e3, E5_CAP, {"quick": (3, 4), "full": (5, 4)})
E5_EXPONENT_GRID: Refined = (3e2, 3e7, {"quick": (3, 4), "full": (6, 4)})
E5_W_EXPONENT = {"quick": (100, 35), "full": (100, 71, 50, 35)}
E5_COMBOS = ((math.inf, "agree_rated"), (math.inf, "agree"), (EPS_REF, "agree_rated"), (EPS_REF, "agree"))
#: E6: w of Multi-MaxSense and its budgets (quick, full); runs per point of the per-user comparison.
E6_W = 32
E6_EPS = {"quick": (1.0, 2.0, 8.0, 32.0), "full": (1.0, 2.0, 4.0, 8.0, 16.0, 32.0)}
E6_PER_USER_CASES = ((4.0, 4), (8.0, 8))
E6_PER_USER_RUNS = 20
#: E7: the item counts of the 1-bit schemes.
E7_N = (16, 32, 64, 128, 256)
#: E8: the budgets of panel (a), MaxSense's N at w = 1 (quick, full) and its sensing constant there.
E8_EPS = (0.1, 0.5, 1.0)
E8_N = {"quick": (26, 50), "full": (26, 50, 100)}
E8_THETA = 0.5
#: E9: the mean misclassified fraction compared with exact recovery, and the allowed gap to the
#: Gaussian ratio.
E9_ERROR, E9_TOLERANCE = 0.05, 0.25
#: E10: movie clusters L and user types K of the fit, and Pairwise-Preference's range in multiples of
#: MaxSense's predicted U_90.
E10_L, E10_K = 2, 2
E10_PP_GRID: Refined = (1.0, 32.0, {"quick": (3, 2), "full": (4, 3)})


# --------------------------------------------------------------------------------------------------
# shared helpers
# --------------------------------------------------------------------------------------------------


def eps_label(eps: float) -> str:
    """ε as the tables show it: ``∞`` for the non-private limit."""
    return "∞" if math.isinf(eps) else f"{eps:g}"


def _named(
    checks: Sequence[tuple[str, bool, str]], names: Sequence[str], against: str = "paper"
) -> list[Check]:
    """The reference module's ``(claim, passed, detail)`` triples, named for their badges."""
    return [Check(c, p, d, n, against) for (c, p, d), n in zip(checks, names, strict=True)]  # type: ignore[arg-type]


def _undecided(checks: Sequence[Check], reason: str) -> list[Check]:
    """The same checks, undefined for this run (their ranges hold at θ = 1 only)."""
    return [c._replace(passed=None, detail=reason) for c in checks]


def _curves(
    P: Parameters, stream: str, settings: Sequence[rc.Setting], grids: Sequence[Any], trials: int, desc: str
) -> tuple[pd.DataFrame, list[float]]:
    """Success curves of each setting on its grid (stream ``stream``), and each setting's U_90."""
    curves = rc.success_curves(settings, grids, trials=trials, stream=P.stream(stream), desc=desc)
    return curves, [float(u) for u in rc.thresholds(curves)]


def _adaptive(
    P: Parameters,
    stream: str,
    settings: Sequence[rc.Setting],
    ranges: Sequence[tuple[float, float]],
    plan: Refined,
    desc: str,
    trials: int | None = None,
) -> tuple[pd.DataFrame, list[float]]:
    """Pairwise-Preference's success curves refined at their crossings (``trials`` runs per point, by
    default ``pp_trials``), and each setting's U_90; ``ranges`` are ``plan``'s range scaled per setting."""
    points, rounds = plan[2][P.mode]
    runs = P.pp_trials if trials is None else trials
    curves = rc.adaptive_curves(
        settings, ranges, points=points, rounds=rounds, trials=runs, stream=P.stream(stream), desc=desc
    )
    return curves, [float(u) for u in rc.thresholds(curves)]


def _ms_grid(setting: rc.Setting, grid: tuple[float, float, int] = E4_GRID) -> NDArray[np.float64]:
    """MaxSense's grid of user counts: ``grid`` = (from, to, points) in multiples of its predicted U_90."""
    return rc.predicted_grid(setting, *grid)


@dataclass(frozen=True)
class U90Record:
    """One measured (or predicted) U_90 of a setting, for the chapter's ``u90`` metrics."""

    setting: rc.Setting
    model: str
    u90: float
    predicted: float | None = None


def _records(
    settings: Sequence[rc.Setting], model: str, u90: Sequence[float], predicted: Sequence[float] | None = None
) -> tuple[U90Record, ...]:
    pred = [None] * len(settings) if predicted is None else list(predicted)
    return tuple(U90Record(s, model, u, p) for s, u, p in zip(settings, u90, pred, strict=True))


def _loglog_axes(ax: Axes, xlabel: str, ylabel: str, title: str) -> None:
    ax.set(xscale="log", yscale="log", xlabel=xlabel, ylabel=ylabel, title=title)


# --------------------------------------------------------------------------------------------------
# E0: the private bit
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mechanism:
    """E0: randomized response's empirical keep rate on 10⁶ bits, and MaxSense's separability on M-asym."""

    keep: Mapping[float, float]
    inf_flips: int
    delta_asym: float
    checks: Mapping[str, list[Check]]

    @property
    def table(self) -> pd.DataFrame:
        """ε, ε̂, the flip probability and the empirical keep rate."""
        eps = [*self.keep, math.inf]
        return pd.DataFrame(
            {
                "ε": [eps_label(e) for e in eps],
                "ε̂ = 2 tanh(ε/2)": [rc.eps_hat(e) for e in eps],
                "flip probability f": [rc.flip_prob(e) for e in eps],
                f"empirical keep rate ({E0_BITS:,} bits)": [
                    *self.keep.values(),
                    1 - self.inf_flips / E0_BITS,
                ],
            }
        )


def mechanism(P: Parameters) -> Mechanism:
    """E0 (stream ``p002-e0``): 10⁶ fair bits through randomized response at each ε of ``E0_EPS``
    and at ε = ∞, one generator in order; δ_min of M-asym at the reference case (M-sym's, 0, is a unit
    test)."""
    rng = P.rng("p002-e0")
    bits = rng.random(E0_BITS) < 0.5
    keep = {eps: float(np.mean(rc.rr_bits(bits, eps, rng) == bits)) for eps in E0_EPS}
    inf_flips = int(np.sum(rc.rr_bits(bits, math.inf, rng) != bits))
    checks = ref.rr_checks(keep, {}, inf_flips)[: len(keep)]  # the keep rates: the others are identities
    names = [f"keep-{eps:g}".replace(".", "-") for eps in keep]
    delta_asym = rc.delta_min(rc.m_asym(N_REF, W_REF), P.theta)
    return Mechanism(keep, inf_flips, delta_asym, {"p002-e0": _named(checks, names, "reference")})


# --------------------------------------------------------------------------------------------------
# E1: lower bounds
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LowerBounds:
    """E1: the explicit lower bounds of Thms 3.3, A.5, 4.8 and 4.10 against N and w, and their slopes."""

    slopes: Mapping[str, float]
    w_slopes: Mapping[str, float]
    table: pd.DataFrame
    checks: Mapping[str, list[Check]]

    def tables(self) -> dict[str, pd.DataFrame]:
        """The bounds at four (N, w)."""
        return {"p002-e1": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """Thm 3.3's constant, corrected."""
        return (("p002-e1", "Thm 3.3's constant: (N/2 − 1) ln 2/ε, not N ln 2/ε", "note-rec-thm33"),)

    def figure(self) -> Figure:
        """(a) the bounds against N at w ∈ {1, 2, 5, 10}; (b) Thms 4.8 and 4.10 against w at N = 10⁴."""
        n = np.geomspace(*E1_N)
        eps = E1_EPS
        fig, axes = panel_row(2, height=4.4)
        ax = axes[0]
        ax.plot(n, rc.thm33_users(n, eps, "paper"), "k:", label="Thm 3.3, paper's constant")
        ax.plot(n, rc.thm33_users(n, eps), "k-", label="Thm 3.3, Fano-consistent")
        ax.plot(n, rc.thmA5_users(n, eps, 2, 0.05 * n), "k--", label="Thm A.5, L = 2, d = 0.05 N")
        for w, colour in zip(E1_W, ("C0", "C1", "C2", "C3"), strict=True):
            ax.plot(n, rc.fano_users(n, rc.thm48_information(n, w, eps)), "-", color=colour, label=f"w = {w}")
            ax.plot(n, rc.fano_users(n, rc.thm410_information(n, w, eps)), "--", color=colour)
        _loglog_axes(
            ax,
            "items N",
            "users below which every scheme fails",
            f"(a) against N, ε = {eps} (solid: 4.8, dashed: 4.10)",
        )
        ax.legend(fontsize=SMALL, ncol=2)
        ws = np.arange(1, E1_W_MAX + 1)
        ax = axes[1]
        ax.plot(ws, rc.fano_users(E1_N_W, rc.thm48_information(E1_N_W, ws, eps)), "C0-", label="Thm 4.8")
        ax.plot(ws, rc.fano_users(E1_N_W, rc.thm410_information(E1_N_W, ws, eps)), "C1--", label="Thm 4.10")
        two = rc.fano_users(E1_N_W, rc.thm48_information(E1_N_W, 2, eps))
        ax.plot(ws, two * (2 / ws) ** 2, "k:", lw=0.8, label="∝ 1/w²")
        one = rc.fano_users(E1_N_W, rc.thm410_information(E1_N_W, 1, eps))
        ax.plot(ws, one / ws, "k-.", lw=0.8, label="∝ 1/w")
        ax.axvline(E1_N_W ** (1 / 3), color="grey", lw=0.6)
        _loglog_axes(ax, "ratings per user w", "", f"(b) against w, N = {E1_N_W:,} (grey: N^(1/3))")
        ax.legend(fontsize=SMALL)
        return fig


def lower_bounds() -> LowerBounds:
    """E1: slopes of the explicit bounds against N over 10³–10⁵ at w = 2, and against w over 2–10 at
    N = 10⁴ (ε = ``E1_EPS``)."""
    n = np.geomspace(*E1_N)
    eps = E1_EPS
    slopes = {
        "Thm 4.8": loglog_slope(n, rc.fano_users(n, rc.thm48_information(n, 2, eps)), 1e3, 1e5),
        "Thm 4.10": loglog_slope(n, rc.fano_users(n, rc.thm410_information(n, 2, eps)), 1e3, 1e5),
        "Thm 3.3": loglog_slope(n, rc.thm33_users(n, eps), 1e3, 1e5),
    }
    ws = np.arange(1, E1_W_MAX + 1)
    w_slopes = {
        name: loglog_slope(ws, rc.fano_users(E1_N_W, fn(E1_N_W, ws, eps)), 2, 10)
        for name, fn in (("48", rc.thm48_information), ("410", rc.thm410_information))
    }
    table = pd.DataFrame(
        [
            {
                "N": n_,
                "w": w,
                "Thm 3.3 (Fano)": rc.thm33_users(n_, eps),
                "Thm 4.8": rc.fano_users(n_, rc.thm48_information(n_, w, eps)),
                "Thm 4.10": rc.fano_users(n_, rc.thm410_information(n_, w, eps)),
            }
            for n_, w in E1_TABLE
        ]
    )
    # Thm 3.3's bound is linear in N by its formula: its slope is a unit test, not a check
    checks = ref.lower_bound_checks(slopes)[:2]
    return LowerBounds(slopes, w_slopes, table, {"p002-e1": _named(checks, ["slope-48", "slope-410"])})


# --------------------------------------------------------------------------------------------------
# E2: exact mutual information
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Information:
    """E2: exact information of 1-bit sketches (Thm 4.3), of MaxSense's sketch, and Lemma 4.7's error."""

    one_bit: pd.DataFrame  # N, query, information, bound
    sketch_n: Mapping[int, NDArray[np.float64]]  # by w, over E2_N_SKETCH
    eps_grid: NDArray[np.float64]
    sketch_eps: NDArray[np.float64]
    doubling: float
    eps_ratio: float
    margin_410: float
    eps_slope: float
    lemma: pd.DataFrame
    checks: Mapping[str, list[Check]]

    @property
    def random_queries(self) -> int:
        """How many random query sets were enumerated."""
        return int((self.one_bit["query"] == "random").sum())

    @property
    def largest_fraction(self) -> float:
        """The largest exact information as a fraction of Thm 4.3's bound."""
        return float((self.one_bit["information"] / self.one_bit["bound"]).replace(np.inf, 0).max())

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every enumerated query, and Lemma 4.7's error."""
        return {"p002-e2": self.one_bit, "p002-e2-lemma47": self.lemma}

    def figure(self) -> Figure:
        """(a) exact information against Thm 4.3's bound; (b) MaxSense's sketch against N; (c) against ε."""
        fig, axes = panel_row(3, height=3.6)
        mi = self.one_bit
        rand, guess = mi[mi["query"] == "random"], mi[mi["query"] == "guess vector"]
        axes[0].scatter(
            rand["bound"] * rand["N"],
            rand["information"] * rand["N"],
            s=4,
            alpha=0.4,
            label="random query sets",
        )
        axes[0].scatter(
            guess["bound"] * guess["N"],
            guess["information"] * guess["N"],
            s=18,
            color="C3",
            label="guess-vector query",
        )
        axes[0].plot([0, 1], [0, 1], "k--", lw=0.8, label="I = bound")
        axes[0].set(xlabel="N × Thm 4.3 bound", ylabel="N × exact I(Z;S) (nats)", title="(a) 1-bit, N = 4…12")
        axes[0].legend(fontsize=SMALL)
        n = np.asarray(E2_N_SKETCH)
        for w, colour in zip(self.sketch_n, ("C0", "C1", "C2"), strict=True):
            axes[1].plot(n, self.sketch_n[w] * n, "o-", color=colour, label=f"w = {w}")
        axes[1].set(
            xscale="log",
            xlabel="items N",
            ylabel="N × I(Z;S | H) (nats)",
            title=f"(b) MaxSense sketch, ε = {E2_EPS}",
        )
        axes[1].legend(fontsize=SMALL)
        e = self.eps_grid
        small = e[e < math.log(2)]
        axes[2].plot(e, self.sketch_eps, "C0-", label="MaxSense, N = 100, w = 1")
        axes[2].plot(e, e, "k--", lw=0.8, label="Lemma 3.1: ε")
        axes[2].plot(
            small, [rc.thm410_leading_term(100, 1, x) for x in small], "k:", label="Thm 4.10: 2ε'²w/N"
        )
        _loglog_axes(axes[2], "ε", "nats", "(c) information against ε")
        axes[2].legend(fontsize=SMALL)
        return fig


def information(P: Parameters) -> Information:
    """E2 (stream ``p002-e2``): Thm 4.3 by enumeration on the guess-vector query and
    ``E2_RANDOM_QUERIES`` random query sets per N; MaxSense's sketch in closed form; Lemma 4.7 in
    exact rationals."""
    rng = P.rng("p002-e2")
    rows = []
    for n in E2_N:
        guess = np.zeros((n, 2), dtype=bool)
        guess[np.arange(n), rng.integers(0, 2, n)] = True
        queries = [("guess vector", guess)]
        queries += [("random", rng.random((n, 2)) < rng.random()) for _ in range(E2_RANDOM_QUERIES)]
        rows += [
            {
                "N": n,
                "query": kind,
                "information": rc.one_bit_information(n, q),
                "bound": rc.thm43_bound(n, q),
            }
            for kind, q in queries
        ]
    mi = pd.DataFrame(rows)
    guess_rows = mi[mi["query"] == "guess vector"].set_index("N")
    guess_ratio = {n: guess_rows.loc[n, "information"] * 2 * n for n in (8, 9, 10)}
    checks = _named(
        ref.thm43_checks(
            float((mi["information"] - mi["bound"]).max()),
            float((mi["information"] * mi["N"]).max()),
            guess_ratio,
        ),
        ["thm43-bound", "thm43-one-over-n", "guess-8", "guess-9", "guess-10"],
    )
    sketch = rc.maxsense_sketch_information
    sketch_n = {w: np.array([sketch(int(n), w, E2_EPS) for n in E2_N_SKETCH]) for w in (1, 2, 4)}
    eps_grid = np.geomspace(0.01, 10, 41)
    sketch_eps = np.array([sketch(100, 1, e) for e in eps_grid])
    small = eps_grid[eps_grid < math.log(2)]
    over_410 = max(sketch(100, w, e) / rc.thm410_leading_term(100, w, e) for w in (1, 2, 4) for e in small)
    over_eps = float(np.max(sketch_eps / eps_grid))
    doubling = sketch(200, 2, E2_EPS) / sketch(100, 2, E2_EPS)
    eps_ratio = sketch(100, 1, 0.1) / sketch(100, 1, 0.2)
    checks += _named(
        ref.maxsense_information_checks(doubling, eps_ratio, over_410, over_eps),
        ["sketch-doubling", "sketch-quadratic", "sketch-thm410", "sketch-lemma31"],
    )
    lemma = _lemma47_table()
    checks += _named(
        ref.lemma47_checks(
            float(lemma["largest |error| − w⁴/N²"].max()), float(lemma["error at w = 1"].abs().max())
        ),
        ["lemma47-bound", "lemma47-zero"],
    )
    return Information(
        mi,
        sketch_n,
        eps_grid,
        sketch_eps,
        doubling,
        eps_ratio,
        1 / over_410,
        loglog_slope(eps_grid, sketch_eps, 0.01, 0.1),
        lemma,
        {"p002-e2": checks},
    )


def _lemma47_table() -> pd.DataFrame:
    rows = []
    for n in E2_LEMMA_N:
        w = np.arange(1, math.isqrt(n) + 1)
        err = np.array([float(rc.lemma47_error_exact(n, int(k))) for k in w])  # exact rationals, then floats
        rows.append(
            {
                "N": n,
                "largest |error| − w⁴/N²": float(np.max(np.abs(err) - w**4 / n**2)),
                "error at w = 1": float(err[0]),
                "error at w = 2": float(err[1]),
                "w⁴/N² at w = 2": 16 / n**2,
                "error at w = 10": float(err[9]),
                "w⁴/N² at w = 10": 1e4 / n**2,
            }
        )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------------
# E3: Pairwise-Preference, information-rich
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairwiseRich:
    """E3: Pairwise-Preference on M-sym with w = N: success curves over N and ε, and the measured constant
    ``U_90 ε̂²/(N ln N)``."""

    settings: Mapping[tuple[str, float], rc.Setting]  # ("N", n), ("eps", ε), ("support", w)
    curves: pd.DataFrame
    u90: Mapping[rc.Setting, float]
    checks: Mapping[str, list[Check]]

    @property
    def unique(self) -> list[rc.Setting]:
        """The distinct settings, in the order of the sweep."""
        return list(dict.fromkeys(self.settings.values()))

    def constant(self, key: tuple[str, float]) -> float:
        """``U_90 ε̂²/(N ln N)`` of one setting."""
        s = self.settings[key]
        return self.u90[s] / rc.pairwise_scale(s.model.n_items, s.eps)

    @property
    def constant_range(self) -> tuple[float, float]:
        """The smallest and largest constant over the N and ε sweeps (finite ones)."""
        values = [self.constant(k) for k in self.settings if k[0] != "support"]
        finite = [c for c in values if math.isfinite(c)]
        return (min(finite), max(finite)) if finite else (math.nan, math.nan)

    @property
    def eps_ratio(self) -> float:
        """``U_90(ε = 0.25)/U_90(ε = 1)`` (``nan`` unless both are in the sweep)."""
        if ("eps", 0.25) not in self.settings or ("eps", 1.0) not in self.settings:
            return math.nan
        return self.u90[self.settings[("eps", 0.25)]] / self.u90[self.settings[("eps", 1.0)]]

    @property
    def eps_laws(self) -> dict[str, float]:
        """What ``U_90(ε = 0.25)/U_90(ε = 1)`` would be under a law in ``1/ε̂`` and in ``1/ε̂²``."""
        ratio = rc.eps_hat(1.0) / rc.eps_hat(0.25)
        return {"1/eps_hat": ratio, "1/eps_hat^2": ratio**2}

    @property
    def slope(self) -> float:
        """Slope of ``U_90/ln N`` against N (1 for ``N log N``)."""
        ns = [k[1] for k in self.settings if k[0] == "N"]
        y = [self.u90[self.settings[("N", n)]] / math.log(n) for n in ns]
        return loglog_slope(ns, y, min(ns), max(ns))

    @property
    def table(self) -> pd.DataFrame:
        """One row per sweep point: N, w, ε, U_90 and the constant."""
        return pd.DataFrame(
            [
                {
                    "sweep": k[0],
                    "value": eps_label(k[1]) if k[0] == "eps" else k[1],
                    "N": s.model.n_items,
                    "w": s.model.w,
                    "ε": eps_label(s.eps),
                    "U_90": self.u90[s],
                    "U_90 ε̂²/(N ln N)": self.constant(k),
                }
                for k, s in self.settings.items()
            ]
        )

    def tables(self) -> dict[str, pd.DataFrame]:
        """U_90 of every setting."""
        return {"p002-e3": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The measured ε dependence, and the sketch the book uses."""
        return (
            (
                "p002-e3",
                "Pairwise-Preference's ε dependence is 1/ε̂², not Informal Theorem 2's 1/ε",
                "note-rec-pp-eps",
            ),
            ("p002-e3", "Pairwise-Preference sketch: Fig. 1's 1{R̂_i = R̂_j}", "note-rec-pp-sketch"),
        )

    def figure(self) -> Figure:
        """Success against ``U/(N ln N/ε̂²)`` for (a) the N sweep and (b) the ε sweep; (c) the constant."""
        fig, axes = panel_row(3, height=3.6)
        for ax, kind, title in (
            (axes[0], "N", "(a) N sweep, ε = 1"),
            (axes[1], "eps", "(b) ε sweep, N = 100"),
        ):
            keys = [k for k in self.settings if k[0] == kind]
            for j, key in enumerate(keys):
                s = self.settings[key]
                cell = self.curves[self.curves["setting"] == self.unique.index(s)]
                label = f"N = {key[1]}" if kind == "N" else f"ε = {eps_label(key[1])}"
                ax.plot(
                    cell["U"] / rc.pairwise_scale(s.model.n_items, s.eps),
                    cell["success"],
                    "o-",
                    ms=3,
                    color=plt.cm.viridis(j / max(len(keys), 1)),
                    label=label,
                )
            ax.axhline(0.9, color="grey", lw=0.6)
            ax.set(xscale="log", xlabel="U / (N ln N / ε̂²)", ylabel="P(exact recovery)", title=title)
            ax.legend(fontsize=SMALL)
        ns = [k[1] for k in self.settings if k[0] == "N"]
        eps = [k[1] for k in self.settings if k[0] == "eps"]
        axes[2].plot(ns, [self.constant(("N", n)) for n in ns], "o-", label="N sweep (ε = 1)")
        axes[2].plot(
            [N_REF] * len(eps),
            [self.constant(("eps", e)) for e in eps],
            "s",
            color="C1",
            label="ε sweep (N = 100)",
        )
        axes[2].set(
            xscale="log",
            xlabel="items N",
            ylabel="U_90 ε̂² / (N ln N)",
            title="(c) the measured constant",
            ylim=(0, None),
        )
        fixed_ticks(axes[2].xaxis, ns)
        axes[2].legend(fontsize=SMALL)
        return fig


def pairwise_rich(P: Parameters) -> PairwiseRich:
    """E3 (stream ``p002-e3``): every N of ``n_items`` at ε = 1, every ε of ``eps_values`` at N = 100, and
    the support-known case (w = 10), each on a grid of U/(N ln N/ε̂²) from 2 to 128."""
    settings: dict[tuple[str, float], rc.Setting] = {}
    for n in P.n_items:
        settings[("N", n)] = rc.Setting("pairwise", rc.m_sym(n, n), EPS_REF)
    for eps in P.eps_values:
        settings[("eps", eps)] = rc.Setting("pairwise", rc.m_sym(N_REF, N_REF), eps)
    settings[("support", E3_SUPPORT_W)] = rc.Setting(
        "pairwise", rc.m_sym(N_REF, E3_SUPPORT_W), EPS_REF, support_known=True
    )
    unique = list(dict.fromkeys(settings.values()))
    scales = [rc.pairwise_scale(s.model.n_items, s.eps) for s in unique]
    ranges = [(E3_GRID[0] * x, E3_GRID[1] * x) for x in scales]
    curves, u90 = _adaptive(P, "p002-e3", unique, ranges, E3_GRID, "Pairwise-Preference, rich regime")
    out = PairwiseRich(settings, curves, dict(zip(unique, u90, strict=True)), {})
    checked = (50, 100, 200)  # the N at which the book's range applies
    constants = {n: out.constant(("N", n)) if ("N", n) in settings else math.nan for n in checked}
    named = _named(
        ref.pairwise_rich_checks(constants, out.eps_ratio), [f"constant-{n}" for n in checked] + ["eps-ratio"]
    )
    for k, n in enumerate(checked):
        if ("N", n) not in settings:
            named[k] = named[k]._replace(passed=None, detail=f"undefined: N = {n} not in n_items")
    if math.isnan(out.eps_ratio):  # the ratio needs ε = 0.25 and ε = 1 among eps_values
        named[-1] = named[-1]._replace(passed=None, detail="undefined: ε = 0.25 or ε = 1 not in eps_values")
    return replace(out, checks={"p002-e3": named})


# --------------------------------------------------------------------------------------------------
# E4: MaxSense, information-scarce
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScarceMaxSense:
    """E4: MaxSense on M-asym across N, w and ε, against the Gaussian prediction and Thm 5.1's scale; the
    transition at the reference case; the closed-form cluster means against both simulators."""

    settings: Mapping[tuple[str, float], rc.Setting]  # ("N", n), ("w", w), ("eps", ε), ("reference", 0)
    reference_case: rc.Setting
    theta: float
    curves: pd.DataFrame
    u90: Mapping[rc.Setting, float]
    transition: pd.DataFrame  # U, success at 10⁵ and 1.2·10⁶ users
    means: Mapping[str, list[float]]  # "closed", "fast", "subset": per-cluster B/U
    checks: Mapping[str, list[Check]]

    @property
    def subset_runs(self) -> int:
        """Runs of each simulator behind the cluster means."""
        return int(ref.MEANS_CASE["runs"])

    @property
    def unique(self) -> list[rc.Setting]:
        """The distinct settings, in the order of the sweep."""
        return list(dict.fromkeys(self.settings.values()))

    def predicted(self, s: rc.Setting) -> float:
        """The Gaussian prediction of a setting's U_90."""
        return s.predicted_u90()

    def scale(self, s: rc.Setting) -> float:
        """Thm 5.1's scale ``N² ln N/(w ε̂² δ²)``."""
        return rc.maxsense_scale(s.model, s.eps, self.theta)

    def _u(self, kind: str) -> tuple[list[float], list[float]]:
        keys = [k[1] for k in self.settings if k[0] == kind]
        return keys, [self.u90[self.settings[(kind, v)]] for v in keys]

    @property
    def slopes(self) -> dict[str, float]:
        """Fitted slopes of log U_90 in log N, log w and log ε̂ (ε ≤ 2; ``nan`` with fewer than two such ε)."""
        (ns, u_n), (ws, u_w) = self._u("N"), self._u("w")
        small = [e for e in (k[1] for k in self.settings if k[0] == "eps") if e <= 2]
        hat = [rc.eps_hat(e) for e in small]
        return {
            "N": loglog_slope(ns, u_n, min(ns), max(ns)),
            "w": loglog_slope(ws, u_w, min(ws), max(ws)),
            "eps_hat": loglog_slope(
                hat, [self.u90[self.settings[("eps", e)]] for e in small], min(hat), max(hat)
            )
            if len(small) >= 2
            else math.nan,
        }

    @property
    def predicted_slopes(self) -> dict[str, float]:
        """The same slopes of the Gaussian prediction, in N and w."""
        out = {}
        for kind in ("N", "w"):
            keys = [k[1] for k in self.settings if k[0] == kind]
            pred = [self.predicted(self.settings[(kind, v)]) for v in keys]
            out[kind] = loglog_slope(keys, pred, min(keys), max(keys))
        return out

    @property
    def over_lower_bound(self) -> NDArray[np.float64]:
        """U_90 of the N sweep over Thm 4.10's explicit lower bound (w = 10, ε = 1)."""
        ns, u_n = self._u("N")
        return np.array(
            [
                u / float(rc.fano_users(n, rc.thm410_information(n, W_REF, EPS_REF)))
                for n, u in zip(ns, u_n, strict=True)
            ]
        )

    @property
    def over_lower_bound_slope(self) -> float:
        """Slope in N of :attr:`over_lower_bound`."""
        ns, _ = self._u("N")
        return loglog_slope(ns, self.over_lower_bound, min(ns), max(ns))

    @property
    def slope_n_theory(self) -> float:
        """``2 + 1/ln N`` at the reference N: the slope in N of ``N² ln N``."""
        return 2 + 1 / math.log(N_REF)

    @property
    def table(self) -> pd.DataFrame:
        """One row per sweep point: U_90, its prediction, the collapse constant, Thm 5.1's proof constant."""
        return pd.DataFrame(
            [
                {
                    "sweep": k[0],
                    "N": s.model.n_items,
                    "w": s.model.w,
                    "ε": eps_label(s.eps),
                    "U_90": self.u90[s],
                    "Gaussian prediction": self.predicted(s),
                    "measured/predicted": self.u90[s] / self.predicted(s),
                    "U_90/scale": self.u90[s] / self.scale(s),
                    "Thm 5.1 proof/U_90": rc.thm51_users(
                        s.model.n_items, s.model.w, s.eps, rc.delta_min(s.model, self.theta), self.theta
                    )
                    / self.u90[s],
                }
                for k, s in self.settings.items()
            ]
        )

    @property
    def gap_ratio(self) -> float:
        """The exact w-subset simulator's between-cluster gap over the closed form's."""
        subset, closed = self.means["subset"], self.means["closed"]
        return (subset[0] - subset[1]) / (closed[0] - closed[1])

    def tables(self) -> dict[str, pd.DataFrame]:
        """U_90 of every setting."""
        return {"p002-e4": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The proof's typos, fixed."""
        return (("p002-e4", "MaxSense's proof, typos fixed", "note-rec-maxsense-means"),)

    def figure(self) -> Figure:
        """(a) success against U over Thm 5.1's scale, with the prediction; (b) measured against predicted
        U_90; (c) U_90 against N, with the theorems."""
        fig, axes = panel_row(3, height=3.8)
        unique = self.unique
        for j, s in enumerate(unique):
            cell = self.curves[self.curves["setting"] == j]
            colour = plt.cm.viridis(j / len(unique))
            axes[0].plot(cell["U"] / self.scale(s), cell["success"], "o", ms=3, color=colour)
            fine = np.geomspace(cell["U"].min(), cell["U"].max(), 60)
            axes[0].plot(
                fine / self.scale(s),
                [rc.predicted_success(s.model, s.eps, u, self.theta) for u in fine],
                "-",
                lw=0.7,
                color=colour,
            )
        axes[0].set(
            xscale="log",
            xlabel="U / (N² ln N / (w ε̂² δ²))",
            ylabel="P(exact recovery)",
            title="(a) every setting; lines: prediction",
        )
        measured = np.array([self.u90[s] for s in unique])
        predicted = np.array([self.predicted(s) for s in unique])
        axes[1].loglog(predicted, measured, "o")
        lims = [
            min(predicted.min(), np.nanmin(measured)) / 1.5,
            max(predicted.max(), np.nanmax(measured)) * 1.5,
        ]
        axes[1].plot(lims, lims, "k--", lw=0.8)
        axes[1].set(
            xlabel="Gaussian prediction of U_90", ylabel="measured U_90", title="(b) measured vs predicted"
        )
        ns, u_n = self._u("N")
        delta = rc.delta_min(rc.m_asym(N_REF, W_REF), self.theta)
        fine = np.geomspace(min(ns), max(ns), 30)
        axes[2].loglog(ns, u_n, "o-", label="MaxSense U_90")
        axes[2].loglog(
            fine,
            [rc.thm51_users(n, W_REF, EPS_REF, delta, self.theta) for n in fine],
            "k:",
            label="Thm 5.1, proof constant",
        )
        axes[2].loglog(
            fine,
            rc.fano_users(fine, rc.thm410_information(fine, W_REF, EPS_REF)),
            "C1--",
            label="Thm 4.10 lower bound",
        )
        axes[2].loglog(
            fine,
            rc.fano_users(fine, rc.thm48_information(fine, W_REF, EPS_REF)),
            "C2--",
            label="Thm 4.8 lower bound",
        )
        axes[2].set(xlabel="items N", ylabel="users", title="(c) w = 10, ε = 1, against N")
        fixed_ticks(axes[2].xaxis, ns)
        axes[2].legend(fontsize=SMALL)
        return fig


def maxsense_scarce(P: Parameters) -> ScarceMaxSense:
    """E4 (streams ``p002-e4``, ``p002-e4/transition``, ``p002-e4/means-…``): MaxSense on M-asym (w = 10,
    ε = 1) for every N of ``n_items``, every w of ``ratings_per_user`` (N = 100) and every ε of
    ``eps_values``; the reference case at 10⁵ and 1.2·10⁶ users; the cluster means of the test case."""
    theta = P.theta
    settings: dict[tuple[str, float], rc.Setting] = {}
    for n in P.n_items:
        settings[("N", n)] = rc.Setting("maxsense", rc.m_asym(n, W_REF), EPS_REF, theta=theta)
    for w in P.ratings_per_user:
        settings[("w", w)] = rc.Setting("maxsense", rc.m_asym(N_REF, w), EPS_REF, theta=theta)
    for eps in P.eps_values:
        settings[("eps", eps)] = rc.Setting("maxsense", rc.m_asym(N_REF, W_REF), eps, theta=theta)
    reference_case = rc.Setting("maxsense", rc.m_asym(N_REF, W_REF), EPS_REF, theta=theta)
    if reference_case not in settings.values():
        settings[("reference", 0)] = reference_case
    unique = list(dict.fromkeys(settings.values()))
    curves, u90 = _curves(
        P, "p002-e4", unique, [_ms_grid(s) for s in unique], P.trials, "MaxSense, scarce regime"
    )
    low, high = ref.MAXSENSE_TRANSITION["low_users"], ref.MAXSENSE_TRANSITION["high_users"]
    edge, _ = _curves(
        P, "p002-e4/transition", [reference_case], [[low, high]], P.trials, "MaxSense transition"
    )
    means = _means(P)
    out = ScarceMaxSense(
        settings,
        reference_case,
        theta,
        curves,
        dict(zip(unique, u90, strict=True)),
        edge,
        means,
        {},
    )
    return replace(out, checks={"p002-e4": _scarce_checks(out)})


def _means(P: Parameters) -> dict[str, list[float]]:
    """The closed-form cluster means of the test case against the fast and the exact w-subset simulator
    (``runs`` runs each)."""
    case, theta = ref.MEANS_CASE, P.theta
    model = rc.BlockModel((1.0,), (0.5, 0.5), (case["b"],), case["n_items"], case["w"])
    fast_rng, subset_rng = P.rng("p002-e4/means-fast"), P.rng("p002-e4/means-subset")
    labels = rc.item_labels(model, fast_rng)

    def per_cluster(scores: Callable[..., NDArray[np.int64]], rng: np.random.Generator) -> list[float]:
        runs = [
            scores(model, labels, case["n_users"], case["eps"], rng, theta=theta) for _ in range(case["runs"])
        ]
        mean = np.mean(runs, axis=0) / case["n_users"]
        return [float(mean[labels == c].mean()) for c in range(2)]

    closed = [float(m) for m in rc.maxsense_means(model, case["eps"], theta)]
    return {
        "closed": closed,
        "fast": per_cluster(rc.maxsense_scores, fast_rng),
        "subset": per_cluster(rc.maxsense_scores_subset, subset_rng),
    }


def _scarce_checks(e4: ScarceMaxSense) -> list[Check]:
    """The collapse and slopes, the transition, and the means: their ranges hold at θ = 1 only."""
    ref_case = e4.reference_case
    constants = {
        f"N={m.model.n_items}, w={m.model.w}, ε={eps_label(m.eps)}": e4.u90[m] / e4.scale(m)
        for m in e4.unique
        if m.model.n_items in E4_COLLAPSE_CASES["N"]
        and m.model.w in E4_COLLAPSE_CASES["w"]
        and m.eps in E4_COLLAPSE_CASES["eps"]
    }
    checks = _named(
        ref.collapse_checks(constants, e4.slopes), ["collapse", "slope-n", "slope-w", "slope-eps"]
    )
    success = e4.transition["success"]
    checks += _named(
        ref.transition_checks(
            float(success.iloc[0]), float(success.iloc[1]), e4.u90[ref_case], e4.predicted(ref_case)
        ),
        ["below", "above", "prediction"],
    )
    m = e4.means
    checks += _named(
        ref.means_checks(m["fast"], m["subset"], m["closed"]),
        ["means-fast", "means-subset", "means-gap"],
        "reference",
    )
    return checks if e4.theta == 1.0 else _undecided(checks, "undefined: the ranges hold at θ = 1")


@dataclass(frozen=True)
class SensingConstant:
    """E4b and E4c: MaxSense against θ at the reference case, and (full mode) the exact w-subset simulator
    against the fast one."""

    thetas: tuple[float, ...]
    u90: tuple[float, ...]
    theta_grid: NDArray[np.float64]
    theta_curve: NDArray[np.float64]
    exact: pd.DataFrame | None  # N, w, U_90 fast, U_90 exact, exact/fast
    checks: Mapping[str, list[Check]]

    @property
    def settings(self) -> list[rc.Setting]:
        """One setting per θ."""
        return [rc.Setting("maxsense", rc.m_asym(N_REF, W_REF), EPS_REF, theta=t) for t in self.thetas]

    @property
    def best_theta(self) -> float:
        """The θ of the grid at which the prediction is lowest."""
        return float(self.theta_grid[np.argmin(self.theta_curve)])

    @property
    def cost_at_one(self) -> float:
        """The predicted U_90 at θ = 1 over the lowest predicted U_90."""
        return rc.predicted_u(rc.m_asym(N_REF, W_REF), EPS_REF, theta=1.0) / float(self.theta_curve.min())

    def exact_ratio(self, n: int, w: int) -> float:
        """Exact over fast U_90 at (N, w) (``nan`` when the comparison did not run)."""
        if self.exact is None:
            return math.nan
        row = self.exact[(self.exact["N"] == n) & (self.exact["w"] == w)]
        return float(row["exact/fast"].iloc[0])

    def tables(self) -> dict[str, pd.DataFrame]:
        """The simulators compared (full mode)."""
        return {} if self.exact is None else {"p002-e4-exact": self.exact}

    def figure(self) -> Figure:
        """(a) U_90 against θ with the prediction; (b) exact over fast U_90 (full mode)."""
        fig, axes = panel_row(2 if self.exact is not None else 1, width=3.9, height=3.6)
        axes[0].loglog(self.thetas, self.u90, "o", label="measured U_90")
        axes[0].loglog(self.theta_grid, self.theta_curve, "-", label="Gaussian prediction")
        axes[0].set(xlabel="θ (probes θN/w items)", ylabel="U_90", title="(a) N = 100, w = 10, ε = 1")
        fixed_ticks(axes[0].xaxis, self.thetas)
        axes[0].legend(fontsize=SMALL)
        if self.exact is not None:
            axes[1].bar(
                [f"N={n}, w={w}" for n, w in zip(self.exact["N"], self.exact["w"], strict=True)],
                self.exact["exact/fast"],
            )
            axes[1].axhline(1.0, color="k", lw=0.8)
            axes[1].set(ylabel="U_90 exact / U_90 fast", title="(b) exactly w rated items per user")
        return fig


def sensing_constant(P: Parameters) -> SensingConstant:
    """E4b (stream ``p002-e4/theta``): MaxSense at every θ of ``E4_THETAS``; E4c (with
    ``exact_simulators``, streams ``p002-e4/exact-fast`` and ``-subset``): both simulators at
    ``E4_EXACT_CASES``."""
    grid = np.geomspace(0.1, 8, 60)
    curve = np.array([rc.predicted_u(rc.m_asym(N_REF, W_REF), EPS_REF, theta=t) for t in grid])
    out = SensingConstant(E4_THETAS, (), grid, curve, None, {})
    grids = [_ms_grid(s) for s in out.settings]
    _, u90 = _curves(P, "p002-e4/theta", out.settings, grids, P.trials, "MaxSense across θ")
    exact, checks = None, []
    claim = (
        f"E4c: exact w-subset U_90 within ±{EXACT_TOLERANCE:.0%} of the fast simulator's"
        " (N = {}, w = {})"  # filled in per case below
    )
    if not P.exact_simulators:
        undefined = "undefined: runs with exact_simulators (full mode)"
        checks = [
            Check(claim.format(n, w), None, undefined, f"exact-{n}-{w}", "reference")
            for n, w in E4_EXACT_CASES
        ]
    else:
        fast = [rc.Setting("maxsense", rc.m_asym(n, w), EPS_REF, theta=P.theta) for n, w in E4_EXACT_CASES]
        grids = [_ms_grid(s, E4_EXACT_GRID) for s in fast]
        _, u_fast = _curves(P, "p002-e4/exact-fast", fast, grids, P.trials, "MaxSense, fast simulator")
        _, u_exact = _curves(
            P,
            "p002-e4/exact-subset",
            [s.but(simulator="subset") for s in fast],
            grids,
            P.trials,
            "MaxSense, exact w-subset simulator",
        )
        exact = pd.DataFrame(
            {
                "N": [n for n, _ in E4_EXACT_CASES],
                "w": [w for _, w in E4_EXACT_CASES],
                "U_90 fast (Bernoulli ratings)": u_fast,
                "U_90 exact (w-subset)": u_exact,
                "exact/fast": np.asarray(u_exact) / np.asarray(u_fast),
            }
        )
        for (n, w), uf, ue in zip(E4_EXACT_CASES, u_fast, u_exact, strict=True):
            ok = math.isfinite(ue / uf) and abs(ue / uf - 1) <= EXACT_TOLERANCE
            checks.append(
                Check(claim.format(n, w), ok, f"{ue:,.0f} vs {uf:,.0f}", f"exact-{n}-{w}", "reference")
            )
    return replace(out, u90=tuple(u90), exact=exact, checks={"p002-e4": checks})


# --------------------------------------------------------------------------------------------------
# E5: rich against scarce
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RichVsScarce:
    """E5: both algorithms across w on M-asym; Pairwise-Preference's exponent in N/w on M-sym, by sketch and
    privacy; MaxSense on M-sym, where it cannot separate the clusters."""

    w: tuple[int, ...]
    pp_u90: tuple[float, ...]
    ms_u90: tuple[float, ...]
    ms_predicted: tuple[float, ...]
    w_exponent: tuple[int, ...]
    combos: tuple[tuple[float, str], ...]  # (ε, sketch)
    exponent_u90: NDArray[np.float64]  # (combos, w_exponent)
    symmetric: pd.DataFrame  # U, success, error of MaxSense on M-sym
    theta: float
    checks: Mapping[str, list[Check]]

    def at(self, w: int) -> tuple[float, float]:
        """(Pairwise-Preference's, MaxSense's) U_90 at ``w``."""
        k = self.w.index(w)
        return self.pp_u90[k], self.ms_u90[k]

    @property
    def full_ratio(self) -> float:
        """PP's over MaxSense's U_90 at w = N."""
        pp, ms = self.at(N_REF)
        return pp / ms

    @property
    def quarter_ratio(self) -> float:
        """MaxSense's over PP's U_90 at w = N/4."""
        pp, ms = self.at(N_REF // 4)
        return ms / pp

    @property
    def exponents(self) -> dict[tuple[float, str], float]:
        """PP's slope of log U_90 in log(N/w), per (ε, sketch) (``nan`` with fewer than two finite U_90)."""
        ratio = N_REF / np.asarray(self.w_exponent)
        out = {}
        for combo, row in zip(self.combos, self.exponent_u90, strict=True):
            ok = np.isfinite(row)
            out[combo] = loglog_slope(ratio[ok], row[ok], 1, 10) if ok.sum() >= 2 else math.nan
        return out

    @property
    def named_exponents(self) -> dict[str, float]:
        """:attr:`exponents` by short names: ``inf_rated``, ``inf_agree``, ``1_rated``, ``1_agree``."""
        short = {"agree_rated": "rated", "agree": "agree"}
        return {
            f"{'inf' if math.isinf(e) else f'{e:g}'}_{short[k]}": s for (e, k), s in self.exponents.items()
        }

    @property
    def symmetric_users(self) -> float:
        """The number of users at which MaxSense's success on M-sym is checked."""
        return float(ref.SYMMETRIC_USERS)

    @property
    def symmetric_success(self) -> float:
        """MaxSense's success on M-sym at the checked number of users."""
        s = self.symmetric
        return float(s.loc[s["U"] == int(ref.SYMMETRIC_USERS), "success"].iloc[0])

    @property
    def table(self) -> pd.DataFrame:
        """U_90 of both algorithms across w, and their ratio."""
        t = pd.DataFrame({"w": self.w, "Pairwise-Preference U_90": self.pp_u90, "MaxSense U_90": self.ms_u90})
        t["PP/MaxSense"] = t["Pairwise-Preference U_90"] / t["MaxSense U_90"]
        return t

    @property
    def settings(self) -> dict[str, list[rc.Setting]]:
        """The settings of the crossover (``"pairwise"``, ``"maxsense"``) and of the exponent fit."""
        return _e5_settings(self.w, self.w_exponent, self.combos, self.theta)

    def tables(self) -> dict[str, pd.DataFrame]:
        """The crossover."""
        return {"p002-e5": self.table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """MaxSense's failure on symmetric models."""
        return (("p002-e5", "MaxSense needs δ_min > 0: it fails on symmetric models", "note-rec-delta-min"),)

    def figure(self) -> Figure:
        """(a) the crossover; (b) PP's exponent in N/w; (c) MaxSense on M-sym."""
        fig, axes = panel_row(3, height=3.8)
        axes[0].loglog(
            self.w, np.where(np.isfinite(self.pp_u90), self.pp_u90, np.nan), "o-", label="Pairwise-Preference"
        )
        axes[0].loglog(self.w, self.ms_u90, "s-", label="MaxSense")
        axes[0].loglog(self.w, self.ms_predicted, "k:", label="MaxSense, prediction")
        axes[0].axhline(E5_CAP, color="grey", lw=0.6)
        axes[0].set(xlabel="ratings per user w", ylabel="U_90", title="(a) M-asym, N = 100, ε = 1")
        axes[0].legend(fontsize=SMALL)
        ratio = N_REF / np.asarray(self.w_exponent)
        slopes = self.exponents
        for (e, k), row, style in zip(
            self.combos, self.exponent_u90, ("o-", "s-", "o--", "s--"), strict=True
        ):
            axes[1].loglog(ratio, row, style, label=f"{k}, ε = {eps_label(e)}: {slopes[(e, k)]:.2f}")
        axes[1].set(xlabel="N / w", ylabel="U_90", title="(b) PP's slope in N/w (M-sym)")
        fixed_ticks(axes[1].xaxis, np.round(ratio, 2))
        axes[1].legend(fontsize=SMALL)
        s = self.symmetric
        axes[2].semilogx(s["U"], s["success"], "o-", label="P(exact recovery)")
        axes[2].semilogx(s["U"], s["error"], "s--", label="misclassified fraction")
        axes[2].set(xlabel="users U", ylim=(-0.03, 1.03), title="(c) MaxSense on M-sym, ε = ∞")
        axes[2].legend(fontsize=SMALL)
        return fig


def _e5_settings(
    w: Sequence[int], w_exponent: Sequence[int], combos: Sequence[tuple[float, str]], theta: float
) -> dict[str, list[rc.Setting]]:
    """Both algorithms on M-asym at every ``w`` (N = 100, ε = 1), and PP on M-sym at every (ε, sketch) of
    ``combos`` and every ``w`` of ``w_exponent``."""
    return {
        "pairwise": [rc.Setting("pairwise", rc.m_asym(N_REF, k), EPS_REF) for k in w],
        "maxsense": [rc.Setting("maxsense", rc.m_asym(N_REF, k), EPS_REF, theta=theta) for k in w],
        "exponent": [
            rc.Setting("pairwise", rc.m_sym(N_REF, k), e, sketch=sketch)
            for e, sketch in combos
            for k in w_exponent
        ],
    }


def rich_vs_scarce(P: Parameters) -> RichVsScarce:
    """E5 (streams ``p002-e5/…``): both algorithms at every w of ``E5_W`` (PP up to ``E5_CAP``
    users); PP on M-sym at the w of ``E5_W_EXPONENT``, two sketches, ε = ∞ and 1; MaxSense on M-sym."""
    w_exp = E5_W_EXPONENT[P.mode]
    settings = _e5_settings(E5_W, w_exp, E5_COMBOS, P.theta)
    pp, ms, exp_settings = settings["pairwise"], settings["maxsense"], settings["exponent"]
    pp_range = [E5_PP_GRID[:2]] * len(pp)
    _, pp_u = _adaptive(P, "p002-e5/pairwise", pp, pp_range, E5_PP_GRID, "PP across w")
    _, ms_u = _curves(P, "p002-e5/maxsense", ms, [_ms_grid(s) for s in ms], P.trials, "MaxSense across w")
    exp_range = [E5_EXPONENT_GRID[:2]] * len(exp_settings)
    _, exp_u = _adaptive(
        P, "p002-e5/exponent", exp_settings, exp_range, E5_EXPONENT_GRID, "PP exponent in N/w"
    )
    sym = rc.Setting("maxsense", rc.m_sym(N_REF, W_REF), math.inf, theta=P.theta)
    sym_grid = [1e4, 1e5, 1e6, ref.SYMMETRIC_USERS, 1e7]
    sym_curve, _ = _curves(P, "p002-e5/symmetric", [sym], [sym_grid], P.trials, "MaxSense on M-sym")
    ms_pred = tuple(s.predicted_u90() for s in ms)
    out = RichVsScarce(
        tuple(E5_W),
        tuple(pp_u),
        tuple(ms_u),
        ms_pred,
        tuple(w_exp),
        E5_COMBOS,
        np.asarray(exp_u).reshape(len(E5_COMBOS), len(w_exp)),
        sym_curve[["U", "success", "error"]],
        P.theta,
        {},
    )
    (pp_full, ms_full), (pp_q, ms_q) = out.at(N_REF), out.at(N_REF // 4)
    cross = _named(ref.crossover_checks(pp_full, ms_full, pp_q, ms_q), ["full-w", "quarter-w"])
    if P.theta != 1.0:
        cross = _undecided(cross, "undefined: the comparison is made at θ = 1")
    slopes = out.exponents
    checks = cross + _named(
        ref.pp_exponent_checks(
            slopes[(math.inf, "agree_rated")], {k: slopes[(EPS_REF, k)] for k in ("agree_rated", "agree")}
        ),
        ["exponent-nonprivate", "exponent-private-rated", "exponent-private-agree"],
    )
    checks += _named(ref.symmetric_checks(out.symmetric_success), ["symmetric"])
    return replace(out, checks={"p002-e5": checks})


# --------------------------------------------------------------------------------------------------
# E6: Multi-MaxSense
# --------------------------------------------------------------------------------------------------

#: E6: the rules that choose Q from ε.
Q_RULES: dict[str, Callable[[float], int]] = {
    "Q = 1 (MaxSense)": lambda e: 1,
    "Q = ⌈ε⌉ (Thm 5.3)": lambda e: math.ceil(e),
    "Q = round(ε/2.2)": lambda e: max(1, round(e / 2.2)),
}


@dataclass(frozen=True)
class MultiMaxSense:
    """E6: Multi-MaxSense under three rules for Q across ε (N = 100, w = 32), against its prediction; and
    (full mode) the per-user simulator of Fig. 3 against the independent-bits model."""

    eps: tuple[float, ...]
    settings: Mapping[tuple[str, float], rc.Setting]  # (rule, ε)
    u90: Mapping[rc.Setting, float]
    theta: float
    per_user: pd.DataFrame | None
    checks: Mapping[str, list[Check]]

    @property
    def unique(self) -> list[rc.Setting]:
        """The distinct settings, in the order of the sweep."""
        return list(dict.fromkeys(self.settings.values()))

    def predicted(self, s: rc.Setting) -> float:
        """The prediction: Q U users at ε/Q."""
        return s.predicted_u90()

    def users(self, rule: str, eps: float) -> float:
        """U_90 of a rule at ε."""
        return self.u90[self.settings[(rule, eps)]]

    @property
    def gain_32(self) -> float:
        """MaxSense's over Thm 5.3's U_90 at ε = 32 (``nan`` when not in the sweep)."""
        rule = "Q = ⌈ε⌉ (Thm 5.3)"
        return self.users("Q = 1 (MaxSense)", 32.0) / self.users(rule, 32.0) if 32.0 in self.eps else math.nan

    @property
    def ratio_2(self) -> float:
        """Thm 5.3's over MaxSense's U_90 at ε = 2 (``nan`` when not in the sweep)."""
        rule = "Q = ⌈ε⌉ (Thm 5.3)"
        return self.users(rule, 2.0) / self.users("Q = 1 (MaxSense)", 2.0) if 2.0 in self.eps else math.nan

    @property
    def first_gain(self) -> float:
        """The smallest ε of the grid at which Q = ⌈ε⌉ needs fewer users than MaxSense (``nan``: none)."""
        better = [
            e for e in self.eps if self.users("Q = ⌈ε⌉ (Thm 5.3)", e) < self.users("Q = 1 (MaxSense)", e)
        ]
        return min(better) if better else math.nan

    @staticmethod
    def per_bit_signal() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Budgets per bit ``x = ε/Q`` from 0.1 to 8, and the signal per unit of budget ``ε̂(x)²/x``."""
        grid = np.linspace(0.1, 8, 200)
        return grid, np.array([rc.eps_hat(x) ** 2 / x for x in grid])

    @property
    def best_per_bit(self) -> float:
        """The budget per bit at which the signal per unit of budget peaks (:meth:`per_bit_signal`)."""
        grid, signal = self.per_bit_signal()
        return float(grid[np.argmax(signal)])

    @property
    def table(self) -> pd.DataFrame:
        """One row per (rule, ε): Q, U_90, the prediction and their ratio."""
        return pd.DataFrame(
            [
                {
                    "rule": rule,
                    "ε": e,
                    "Q": s.n_bits,
                    "U_90": self.u90[s],
                    "prediction": self.predicted(s),
                    "measured/predicted": self.u90[s] / self.predicted(s),
                }
                for (rule, e), s in self.settings.items()
            ]
        )

    def per_user_ratio(self, eps: float) -> float:
        """Per-user over independent-bits U_90 at ε (``nan`` when not run)."""
        if self.per_user is None:
            return math.nan
        return float(self.per_user.loc[self.per_user["ε"] == eps, "per user / independent"].iloc[0])

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every (rule, ε), and the per-user comparison (full mode)."""
        out = {"p002-e6": self.table}
        return out if self.per_user is None else {**out, "p002-e6-per-user": self.per_user}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """Thm 5.3's choice of Q."""
        title = "Thm 5.3's choice Q = ⌈ε⌉ is not optimal, and its ε̂ bound fails for ε < 2"
        return (("p002-e6", title, "note-rec-multi-q"),)

    def figure(self) -> Figure:
        """(a) U_90 of each rule against ε, with the predictions; (b) the signal per unit of budget."""
        fig, axes = panel_row(2, width=3.9, height=3.6)
        for rule, style in zip(Q_RULES, ("o-", "s-", "^-"), strict=True):
            axes[0].loglog(self.eps, [self.users(rule, e) for e in self.eps], style, label=rule)
            axes[0].loglog(
                self.eps, [self.predicted(self.settings[(rule, e)]) for e in self.eps], ":", color="grey"
            )
        axes[0].set(xlabel="ε", ylabel="U_90", title="(a) N = 100, w = 32 (dotted: prediction)")
        axes[0].legend(fontsize=SMALL)
        axes[1].plot(*self.per_bit_signal(), "-")
        axes[1].axvline(self.best_per_bit, color="grey", lw=0.6)
        axes[1].set(
            xlabel="budget per bit ε/Q", ylabel="ε̂(ε/Q)² / (ε/Q)", title="(b) signal per unit of budget"
        )
        return fig


def multi_maxsense(P: Parameters) -> MultiMaxSense:
    """E6 (stream ``p002-e6``; with ``exact_simulators`` also ``p002-e6/independent-bits`` and
    ``p002-e6/per-user``): every rule of ``Q_RULES`` at every ε of ``E6_EPS``, Q at most w/θ."""
    eps = E6_EPS[P.mode]
    model = rc.m_asym(N_REF, E6_W)
    settings = {
        (rule, e): rc.Setting(
            "multi-maxsense", model, e, theta=P.theta, n_bits=min(fn(e), int(E6_W / P.theta))
        )
        for rule, fn in Q_RULES.items()
        for e in eps
    }
    unique = list(dict.fromkeys(settings.values()))
    _, u90 = _curves(P, "p002-e6", unique, [_ms_grid(s) for s in unique], P.trials, "Multi-MaxSense across ε")
    per_user = None
    if P.exact_simulators:
        fast = [rc.Setting("multi-maxsense", model, e, theta=P.theta, n_bits=q) for e, q in E6_PER_USER_CASES]
        grids = [_ms_grid(s, E4_EXACT_GRID) for s in fast]
        _, u_fast = _curves(
            P,
            "p002-e6/independent-bits",
            fast,
            grids,
            E6_PER_USER_RUNS,
            "Multi-MaxSense, independent-bits model",
        )
        _, u_exact = _curves(
            P,
            "p002-e6/per-user",
            [s.but(simulator="subset") for s in fast],
            grids,
            E6_PER_USER_RUNS,
            "Multi-MaxSense, per user (Fig. 3)",
        )
        per_user = pd.DataFrame(
            {
                "ε": [e for e, _ in E6_PER_USER_CASES],
                "Q": [q for _, q in E6_PER_USER_CASES],
                "U_90 independent bits": u_fast,
                "U_90 per user (Fig. 3)": u_exact,
            }
        )
        per_user["per user / independent"] = (
            per_user["U_90 per user (Fig. 3)"] / per_user["U_90 independent bits"]
        )
    out = MultiMaxSense(tuple(eps), settings, dict(zip(unique, u90, strict=True)), P.theta, per_user, {})
    checks = _named(
        ref.multi_checks(out.gain_32, out.ratio_2, list(out.table["measured/predicted"])),
        ["gain-32", "no-gain-2", "prediction"],
    )
    if not (32.0 in eps and 2.0 in eps and P.theta == 1.0):  # Q = 32 needs w/θ ≥ 32
        checks = _undecided(checks, "undefined: needs ε = 2 and 32 and θ = 1")
    return replace(out, checks={"p002-e6": checks})


# --------------------------------------------------------------------------------------------------
# E7: one-bit sketches
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OneBit:
    """E7: U_90 of the four 1-bit schemes (w = 1, no privacy), their approximations and the Fano bound."""

    table: pd.DataFrame  # scheme, N, U_90, formula, measured/formula
    checks: Mapping[str, list[Check]]

    def u90(self, scheme: str, n: int) -> float:
        """U_90 of a scheme at N."""
        t = self.table
        return float(t[(t["scheme"] == scheme) & (t["N"] == n)]["U_90"].iloc[0])

    @property
    def slopes(self) -> dict[str, float]:
        """Each scheme's slope of log U_90 in log N."""
        return {
            s: loglog_slope(c["N"], c["U_90"], min(E7_N), max(E7_N))
            for s, c in self.table.groupby("scheme", sort=False)
        }

    @property
    def adaptive_ratio(self) -> dict[int, float]:
        """Adaptive over non-adaptive point-query U_90, for N ≥ 64."""
        return {n: self.u90("adaptive", n) / self.u90("point_query", n) for n in E7_N if n >= 64}

    @property
    def n(self) -> int:
        """The N at which the schemes are compared with their approximations."""
        return int(ref.ONE_BIT_N)

    @property
    def order(self) -> float:
        """``N/ln² N`` at :attr:`n`: the order of the price of exactly one bit."""
        return self.n / math.log(self.n) ** 2

    @property
    def price(self) -> float:
        """At N = 128: the adaptive scheme's U_90 over the average-1-bit scheme's."""
        return self.u90("adaptive", ref.ONE_BIT_N) / self.u90("average_bit", ref.ONE_BIT_N)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every scheme at every N."""
        return {"p002-e7": self.table}

    @property
    def pivot(self) -> pd.DataFrame:
        """U_90 by N (rows) and scheme (columns)."""
        return self.table.pivot(index="N", columns="scheme", values="U_90")

    def figure(self) -> Figure:
        """U_90 against N of every scheme, its approximation (lines) and the Fano bound."""
        fig, (ax,) = panel_row(1, width=5.6, height=4.2)
        for j, (scheme, slope) in enumerate(self.slopes.items()):
            cell = self.table[self.table["scheme"] == scheme]
            ax.loglog(cell["N"], cell["U_90"], "o", color=f"C{j}", label=f"{scheme}: slope {slope:.2f}")
            ax.loglog(cell["N"], cell["formula"], "-", lw=0.8, color=f"C{j}")
        ax.loglog(E7_N, [rc.fano_one_bit_users(n) for n in E7_N], "k--", label="Fano bound, any 1-bit sketch")
        ax.set(xlabel="items N", ylabel="U_90", title="1-bit schemes, w = 1 (lines: approximations)")
        fixed_ticks(ax.xaxis, E7_N)
        ax.legend(fontsize=SMALL)
        return fig


def one_bit(P: Parameters) -> OneBit:
    """E7 (streams ``p002-e7/<scheme>``): ``one_bit_trials`` runs of each scheme at every N of ``E7_N``,
    one generator per scheme through the N in order."""
    rows = []
    for scheme in rc.SCHEMES:
        rng = P.rng(f"p002-e7/{scheme}")
        for n in E7_N:
            need = rc.users_needed(scheme, n, P.one_bit_trials, rng)
            rows.append(
                {
                    "scheme": scheme,
                    "N": n,
                    "U_90": float(np.quantile(need, 0.9)),
                    "formula": rc.approximate_u90(scheme, n),
                }
            )
    table = pd.DataFrame(rows)
    table["measured/formula"] = table["U_90"] / table["formula"]
    out = OneBit(table, {})
    at = table[table["N"] == ref.ONE_BIT_N].set_index("scheme")
    checks = _named(
        ref.one_bit_checks(at["measured/formula"].to_dict(), out.adaptive_ratio),
        [f"formula-{s.replace('_', '-')}" for s in at.index] + [f"adaptive-{n}" for n in out.adaptive_ratio],
    )
    # Thm 4.3 through Fano binds the schemes that release exactly one bit: their U_90 (≥ the median)
    exact = table[table["scheme"].isin(["point_query", "adaptive"])]
    margin = (exact["U_90"] / [rc.fano_one_bit_users(n) for n in exact["N"]]).to_numpy()
    checks.append(
        Check(
            "Thm 4.3: the exactly-1-bit schemes need at least the Fano bound at every N",
            bool(np.all(margin >= 1)),
            f"U_90 / bound from {np.min(margin):.2f} to {np.max(margin):.2f}",
            "fano",
        )
    )
    return replace(out, checks={"p002-e7": checks})


# --------------------------------------------------------------------------------------------------
# E8: adaptive queries
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Adaptive:
    """E8: Thm 6.1's recursion, its N log N growth, and MaxSense at w = 1 against both lower bounds."""

    n_w1: tuple[int, ...]
    u90: tuple[float, ...]
    growth: Mapping[int, float]
    checks: Mapping[str, list[Check]]

    @property
    def settings(self) -> list[rc.Setting]:
        """MaxSense at w = 1, θ = ``E8_THETA``, one per N."""
        return [rc.Setting("maxsense", rc.m_asym(n, 1), EPS_REF, theta=E8_THETA) for n in self.n_w1]

    @staticmethod
    def bounds_at(n: int, eps: float = EPS_REF) -> tuple[int, float]:
        """Thm 6.1's adaptive and Thm 4.10's non-adaptive lower bound at N (w = 1)."""
        return rc.adaptive_lower_bound(n, eps), float(rc.fano_users(n, rc.thm410_information(n, 1, eps)))

    def figure(self) -> Figure:
        """(a) T_LB C/N against N; (b) the adaptive and non-adaptive bounds and MaxSense at w = 1."""
        n_grid = np.geomspace(1e2, 1e6, 13)
        fig, axes = panel_row(2, width=3.9, height=3.6)
        for e, colour in zip(E8_EPS, ("C0", "C1", "C2"), strict=True):
            t = np.array([rc.adaptive_lower_bound(n, e) for n in n_grid])
            axes[0].semilogx(
                n_grid, t * rc.adaptive_constant(e) / n_grid, "o", color=colour, label=f"ε = {e}"
            )
        axes[0].semilogx(
            n_grid,
            rc.adaptive_lower_bound_asymptote(n_grid, 1.0) * rc.adaptive_constant(1.0) / n_grid,
            "k-",
            lw=0.8,
            label="1 + ln(N ln2 / 2)",
        )
        axes[0].set(xlabel="items N", ylabel="T_LB · C / N", title="(a) the recursion grows like N log N")
        axes[0].legend(fontsize=SMALL)
        fine = np.geomspace(20, 1e4, 40)
        axes[1].loglog(
            fine, [rc.adaptive_lower_bound(n, EPS_REF) for n in fine], "C0-", label="Thm 6.1 (adaptive)"
        )
        axes[1].loglog(
            fine,
            rc.fano_users(fine, rc.thm410_information(fine, 1, EPS_REF)),
            "C1--",
            label="Thm 4.10 (non-adaptive)",
        )
        axes[1].loglog(self.n_w1, self.u90, "ks", label="MaxSense U_90, θ = 1/2")
        axes[1].set(xlabel="items N", ylabel="users", title="(b) the open gap, ε = 1, w = 1")
        axes[1].legend(fontsize=SMALL)
        return fig


def adaptive(P: Parameters) -> Adaptive:
    """E8 (stream ``p002-e8``): the recursion's growth over a decade at N = 10³, 10⁴, 10⁵ (ε = 1), and
    MaxSense at w = 1, θ = ``E8_THETA``, for the N of ``E8_N``."""
    growth = {
        int(n): rc.adaptive_lower_bound(10 * n, EPS_REF) / (10 * rc.adaptive_lower_bound(n, EPS_REF))
        for n in (1e3, 1e4, 1e5)
    }
    checks = _named(ref.adaptive_checks(growth), [f"growth-{n}" for n in growth])
    out = Adaptive(E8_N[P.mode], (), growth, {"p002-e8": checks})
    grids = [_ms_grid(s) for s in out.settings]
    _, u90 = _curves(P, "p002-e8", out.settings, grids, P.trials, "MaxSense at w = 1")
    return replace(out, u90=tuple(u90))


# --------------------------------------------------------------------------------------------------
# E9: distortion
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Distortion:
    """E9: the users at which MaxSense's mean misclassified fraction falls to 5 %, against exact recovery."""

    table: pd.DataFrame
    reference_curve: pd.DataFrame  # U, success, error at the reference case
    reference_row: int
    checks: Mapping[str, list[Check]]

    def at_reference(self, column: str) -> float:
        """A column of the table at the reference case."""
        return float(self.table[column].iloc[self.reference_row])

    @property
    def gaussian_gap(self) -> NDArray[np.float64]:
        """Measured over Gaussian ratio, per configuration."""
        return (self.table["ratio"] / self.table["Gaussian ratio"]).to_numpy()

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every configuration of E4."""
        return {"p002-e9": self.table}

    def figure(self) -> Figure:
        """Mean misclassified fraction and P(not exact) against U at the reference case."""
        c = self.reference_curve
        fig, (ax,) = panel_row(1, width=5.4, height=3.8)
        ax.loglog(c["U"], c["error"].clip(lower=1e-4), "o-", label="mean misclassified fraction")
        ax.loglog(c["U"], (1 - c["success"]).clip(lower=1e-4), "s--", label="P(not exact)")
        ax.axhline(E9_ERROR, color="grey", lw=0.6)
        ax.axvline(
            self.at_reference("Thm A.5 bound (d = 0.05 N)"), color="k", ls=":", label="Thm A.5 lower bound"
        )
        ax.set(xlabel="users U", title="MaxSense, N = 100, w = 10, ε = 1 (floor 10⁻⁴)")
        ax.legend(fontsize=SMALL)
        return fig


def distortion(e4: ScarceMaxSense) -> Distortion:
    """E9: from E4's curves, U at a mean misclassified fraction of ``E9_ERROR`` for every setting."""
    u5 = rc.thresholds(e4.curves, error=E9_ERROR)
    rows = []
    for s, u in zip(e4.unique, u5, strict=True):
        n = s.model.n_items
        rows.append(
            {
                "N": n,
                "w": s.model.w,
                "ε": eps_label(s.eps),
                "U_90 (exact)": e4.u90[s],
                "U (mean error ≤ 5%)": u,
                "ratio": e4.u90[s] / u,
                "Gaussian ratio": rc.distortion_ratio(n),
                "Thm A.5 bound (d = 0.05 N)": rc.thmA5_users(n, s.eps, 2, 0.05 * n)
                if math.isfinite(s.eps)
                else math.nan,
            }
        )
    table = pd.DataFrame(rows)
    ok = table["ratio"] / table["Gaussian ratio"]
    check = Check(
        "U_90/U(mean error ≤ 5%) within ±25% of the Gaussian ratio, every configuration",
        bool(np.all(np.isfinite(ok)) and np.all(np.abs(ok - 1) <= E9_TOLERANCE)),
        f"measured/Gaussian {ok.min():.2f}–{ok.max():.2f}",
        "gaussian-ratio",
        "reference",
    )
    j = e4.unique.index(e4.reference_case)
    curve = e4.curves[e4.curves["setting"] == j][["U", "success", "error"]]
    return Distortion(table, curve, j, {"p002-e9": [check]})


# --------------------------------------------------------------------------------------------------
# E10: real ratings (MovieLens 100k), semi-synthetic
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MovieLens:
    """E10: the block model fitted to MovieLens 100k's likes, and both algorithms on users drawn from it."""

    shape: tuple[int, int, int]  # ratings, users, movies of the data set
    rating_values: tuple[int, ...]
    likes: rc.LikeMatrix
    fit: rc.BlockFit
    theta: float
    eps: tuple[float, ...]
    ms_curves: pd.DataFrame
    pp_curves: pd.DataFrame
    ms_u90: tuple[float, ...]
    pp_u90: tuple[float, ...]
    checks: Mapping[str, list[Check]]

    @property
    def model(self) -> rc.BlockModel:
        """The fitted block model."""
        return self.fit.model

    @property
    def delta(self) -> float:
        """Thm 5.1's separability δ_min of the fit."""
        return rc.delta_min(self.model, self.theta)

    @property
    def predicted(self) -> tuple[float, ...]:
        """MaxSense's Gaussian prediction of U_90 at each ε."""
        return tuple(rc.predicted_u(self.model, e, theta=self.theta) for e in self.eps)

    @property
    def collapse(self) -> tuple[float, ...]:
        """MaxSense's U_90 over Thm 5.1's scale ``N² ln N/(w ε̂² δ²)``, at each ε."""
        return tuple(
            u / rc.maxsense_scale(self.model, e, self.theta)
            for u, e in zip(self.ms_u90, self.eps, strict=True)
        )

    @property
    def fit_table(self) -> pd.DataFrame:
        """The fitted model: one row per user type, α_k and b_kl, with β_l in the column names."""
        m = self.model
        rows = [
            {
                "user type k": k + 1,
                "α_k": a,
                **{f"b_k{c + 1} (β_{c + 1} = {m.beta[c]:.2f})": m.b[k][c] for c in range(m.L)},
            }
            for k, a in enumerate(m.alpha)
        ]
        return pd.DataFrame(rows)

    @property
    def table(self) -> pd.DataFrame:
        """U_90 of both algorithms at each ε, MaxSense's prediction, and the ratios."""
        return pd.DataFrame(
            {
                "ε": [eps_label(e) for e in self.eps],
                "MaxSense U_90": self.ms_u90,
                "Gaussian prediction": self.predicted,
                "measured/predicted": np.asarray(self.ms_u90) / np.asarray(self.predicted),
                "Pairwise-Preference U_90": self.pp_u90,
                "PP/MaxSense": np.asarray(self.pp_u90) / np.asarray(self.ms_u90),
            }
        )

    def at(self, eps: float, column: str) -> float:
        """A column of :attr:`table` at ε (``nan`` when ε is not in the run)."""
        if eps not in self.eps:
            return math.nan
        return float(self.table[column].iloc[self.eps.index(eps)])

    def metrics(self) -> dict[str, Any]:
        """The fit and both algorithms' U_90."""
        m = self.model
        return {
            "movielens_shape": {"ratings": self.shape[0], "users": self.shape[1], "movies": self.shape[2]},
            "movielens_fit": {
                "alpha": m.alpha,
                "beta": m.beta,
                "b": m.b,
                "N": m.n_items,
                "w": m.w,
                "density": self.likes.density,
                "mean_ratings": self.likes.mean_ratings,
                "like_fraction": self.likes.like_fraction,
                "delta_min": self.delta,
            },
            "movielens_u90": [
                {"eps": "inf" if math.isinf(e) else e, "maxsense": u_ms, "predicted": p, "pairwise": u_pp}
                for e, u_ms, p, u_pp in zip(self.eps, self.ms_u90, self.predicted, self.pp_u90, strict=True)
            ],
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """Both algorithms' U_90, and the fit."""
        return {"p002-e10": self.table, "p002-e10-fit": self.fit_table}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """The semi-synthetic design is the book's."""
        return (
            (
                "p002-e10",
                "Semi-synthetic users: the book fits the block model to MovieLens likes",
                "note-rec-movielens",
            ),
        )

    def figure(self) -> Figure:
        """(a) the like matrix ordered by the fit's clusters; (b) success against U of both algorithms."""
        fig, axes = panel_row(2, height=4.0)
        rows = np.lexsort((-self.likes.rated.sum(axis=1), self.fit.user_types))
        cols = np.argsort(self.fit.item_clusters, kind="stable")
        shown = self.likes.rated.astype(float) + self.likes.liked
        axes[0].imshow(
            shown[np.ix_(rows, cols)], aspect="auto", cmap="Greys", interpolation="nearest", vmin=0, vmax=2
        )
        for cut in np.cumsum(np.bincount(self.fit.item_clusters))[:-1]:
            axes[0].axvline(cut - 0.5, color="C3", lw=1.2)
        for cut in np.cumsum(np.bincount(self.fit.user_types))[:-1]:
            axes[0].axhline(cut - 0.5, color="C3", lw=1.2)
        axes[0].set(
            xlabel=f"movie (top {self.model.n_items}, by cluster)",
            ylabel="user (by type)",
            title="(a) likes (black), other ratings (grey)",
        )
        axes[0].grid(False)
        for j, e in enumerate(self.eps):
            for curves, style, name in ((self.ms_curves, "o-", "MaxSense"), (self.pp_curves, "s--", "PP")):
                cell = curves[curves["setting"] == j]
                axes[1].semilogx(
                    cell["U"],
                    cell["success"],
                    style,
                    ms=3,
                    color=f"C{j}",
                    label=f"{name}, ε = {eps_label(e)}",
                )
        axes[1].axhline(0.9, color="grey", lw=0.6)
        axes[1].set(
            xlabel="simulated users U", ylabel="P(exact recovery)", title="(b) users simulated from the fit"
        )
        axes[1].legend(fontsize=SMALL, ncol=2)
        return fig


def movielens(P: Parameters) -> MovieLens:
    """E10 (streams ``p002-e10/fit``, ``p002-e10/maxsense``, ``p002-e10/pairwise``): load MovieLens 100k,
    binarise it on the ``movielens_items`` most-rated movies, fit the block model (L = K = 2), and run
    MaxSense (``trials`` runs per point, around its prediction) and Pairwise-Preference
    (``movielens_trials`` runs per point, on ``E10_PP_GRID`` times MaxSense's prediction) at every ε
    of ``movielens_eps`` on users simulated from the fit."""
    frame = rc.load_movielens100k()
    shape = (len(frame), int(frame["user_id"].nunique()), int(frame["movie_id"].nunique()))
    values = tuple(sorted(int(v) for v in frame["rating"].unique()))
    likes = rc.like_matrix(frame, P.movielens_items)
    fit = rc.fit_block_model(likes, E10_L, E10_K, P.rng("p002-e10/fit"))
    eps = tuple(P.movielens_eps)
    ms = [rc.Setting("maxsense", fit.model, e, theta=P.theta) for e in eps]
    ms_curves, ms_u = _curves(
        P, "p002-e10/maxsense", ms, [_ms_grid(s) for s in ms], P.trials, "MaxSense, MovieLens fit"
    )
    pp = [rc.Setting("pairwise", fit.model, e) for e in eps]
    pp_ranges = [(E10_PP_GRID[0] * s.predicted_u90(), E10_PP_GRID[1] * s.predicted_u90()) for s in ms]
    pp_curves, pp_u = _adaptive(
        P,
        "p002-e10/pairwise",
        pp,
        pp_ranges,
        E10_PP_GRID,
        "Pairwise-Preference, MovieLens fit",
        P.movielens_trials,
    )
    out = MovieLens(
        shape, values, likes, fit, P.theta, eps, ms_curves, pp_curves, tuple(ms_u), tuple(pp_u), {}
    )
    return replace(out, checks={"p002-e10": _movielens_checks(out)})


def _movielens_checks(e10: MovieLens) -> list[Check]:
    """The data set's documented facts; MaxSense's U_90 against its prediction and Thm 5.1's scale."""
    (n, users, movies), (n0, users0, movies0) = e10.shape, rc.MOVIELENS100K_SHAPE
    checks = [
        Check(f"MovieLens 100k holds {n0:,} ratings", n == n0, f"{n:,} rows", "ratings", "reference"),
        Check(f"by {users0} users", users == users0, f"{users} users", "users", "reference"),
        Check(f"of {movies0:,} movies", movies == movies0, f"{movies:,} movies", "movies", "reference"),
        Check(
            "each rating an integer from 1 to 5",
            e10.rating_values == (1, 2, 3, 4, 5),
            f"values {list(e10.rating_values)}",
            "scale",
            "reference",
        ),
    ]
    factor = ref.MAXSENSE_TRANSITION["prediction_factor"]
    ratios = np.asarray(e10.ms_u90) / np.asarray(e10.predicted)
    within = bool(np.all(np.isfinite(ratios)) and np.all(np.maximum(ratios, 1 / ratios) <= factor))
    checks.append(
        Check(
            f"MaxSense's U_90 on the fit within a factor {factor} of the Gaussian prediction, every ε",
            within,
            f"measured/predicted {np.nanmin(ratios):.2f}–{np.nanmax(ratios):.2f}",
            "prediction",
            "reference",
        )
    )
    lo, hi = ref.COLLAPSE_RANGE
    constants = np.asarray(e10.collapse)
    inside = bool(np.all(np.isfinite(constants)) and np.all((constants >= lo) & (constants <= hi)))
    checks.append(
        Check(
            f"Thm 5.1's scale: U_90/(N² ln N/(w ε̂² δ²)) on the fit in [{lo:g}, {hi:g}], every ε",
            inside,
            f"range {np.nanmin(constants):.1f}–{np.nanmax(constants):.1f}",
            "thm51-scale",
        )
    )
    return checks


# --------------------------------------------------------------------------------------------------
# summary: the U_90 and the fitted exponents of every experiment
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """Every measured U_90 (with its prediction where the library has one) and every fitted exponent."""

    records: tuple[U90Record, ...]
    exponents: tuple[dict[str, Any], ...]

    @property
    def exponent_table(self) -> pd.DataFrame:
        """algorithm, variable, slope."""
        return pd.DataFrame(list(self.exponents))

    def metrics(self) -> dict[str, Any]:
        """``u90``, ``u90_predicted`` and ``fitted_exponents``."""
        return {
            "u90": [rc.record(r.setting, r.model, r.u90) for r in self.records],
            "u90_predicted": [
                rc.record(r.setting, r.model, r.predicted, name="u90")
                for r in self.records
                if r.predicted is not None
            ],
            "fitted_exponents": list(self.exponents),
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """The fitted exponents."""
        return {"fitted_exponents": self.exponent_table}


def summary(
    e3: PairwiseRich,
    e4: ScarceMaxSense,
    e4b: SensingConstant,
    e5: RichVsScarce,
    e6: MultiMaxSense,
    e7: OneBit,
    e8: Adaptive,
) -> Summary:
    """Join the U_90 of E3–E6 and E8 and the exponents of E3, E4, E5 and E7, in the chapter's order."""
    s5 = e5.settings
    records = (
        *_records(e3.unique, "M-sym", [e3.u90[s] for s in e3.unique]),
        *_records(e4.unique, "M-asym", [e4.u90[s] for s in e4.unique], [e4.predicted(s) for s in e4.unique]),
        *_records(e4b.settings, "M-asym", e4b.u90, [s.predicted_u90() for s in e4b.settings]),
        *_records(s5["pairwise"], "M-asym", e5.pp_u90),
        *_records(s5["maxsense"], "M-asym", e5.ms_u90, e5.ms_predicted),
        *_records(s5["exponent"], "M-sym", e5.exponent_u90.ravel().tolist()),
        *_records(e6.unique, "M-asym", [e6.u90[s] for s in e6.unique], [e6.predicted(s) for s in e6.unique]),
        *_records(e8.settings, "M-asym", e8.u90, [s.predicted_u90() for s in e8.settings]),
    )
    exponents = (
        {"algorithm": "pairwise", "variable": "N (U_90 / ln N)", "slope": e3.slope},
        *({"algorithm": "maxsense", "variable": v, "slope": s} for v, s in e4.slopes.items()),
        *(
            {"algorithm": f"pairwise ({k}, ε = {eps_label(e)})", "variable": "N/w", "slope": s}
            for (e, k), s in e5.exponents.items()
        ),
        *({"algorithm": f"1-bit {scheme}", "variable": "N", "slope": s} for scheme, s in e7.slopes.items()),
    )
    return Summary(records, exponents)
