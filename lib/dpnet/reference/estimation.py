"""Paper 001 (distributed estimation on power networks): published facts and the reproduction spec's
independent numbers (spec 001 §7), with the checks of chapter ``distributed-estimation``.

The paper prints only the networks' sizes and the German signals' law (§5.1); its figures carry no
numbers. The other constants are the spec's own computations ([exact] or [sim], spec 001 §7), made
with an independent implementation; they are labelled as such in every check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import numpy as np

from dpnet.reference._check import Check

#: Figures 3–6: the ε of each sample-path figure by dataset, from the authors' run_all_experiments.sh at
#: commit 7659bf4, which matches the captions except Figure 3's German panel: the caption says ε = 10, the
#: script ran ε = 1 (spec §6 item 4). Both are drawn.
FIGURE_EPS: Final = {
    "Fig 3": ("MVUE-S", {"german_households": (1.0, 10.0), "us_power_grid": (0.5,)}),
    "Fig 4": ("MVUE-N", {"german_households": (1.0,), "us_power_grid": (0.5,)}),
    "Fig 5": ("OL-S", {"german_households": (10.0,), "us_power_grid": (1.0,)}),
    "Fig 6": ("OL-N", {"german_households": (10.0,), "us_power_grid": (1.0,)}),
}
#: §5.1: network sizes (nodes, edges).
GRID_SIZE: Final = (4941, 6594)
GERMAN_SIZE: Final = (969, 13236)
#: §5.1: the German consumption is log-normal with μ = 1.67, σ = 1.04 (the law of log s).
GERMAN_LAW: Final = (1.67, 1.04)
#: Spec §7 A1–A2 [exact]: SLEM β*, smallest eigenvalue and largest MH weight a, with tolerances.
SPECTRA: Final = {
    "us_power_grid": {"beta_star": (0.999857, 2e-6), "lambda_n": (-0.9573, 1e-3), "a_max": (0.5, 1e-12)},
    "german_households": {"beta_star": (0.99018, 1e-4), "a_max": (1 / 9, 1e-12)},
}
#: Spec §7 B: the reference case of the exact-moment check, RGG(200, 0.15, seed 3), T = 60, Var ξ = σ² with
#: σ = 1, Laplace noise of scale 0.5.
MOMENT_CASE: Final = {"n": 200, "radius": 0.15, "graph_seed": 3, "horizon": 60, "sigma": 1.0, "scale": 0.5}
#: Issue 7 and spec §7 B: Monte Carlo second moments within 5 % of the exact formulas.
MOMENT_TOLERANCE: Final = 0.05
#: Spec §7 B: the network average equals the running mean of the inputs to machine precision.
AVERAGE_TOLERANCE: Final = 1e-10
#: Spec §7 C: fitted log–log slopes within ±0.1; Algorithm 5 falls as t^(−1/2).
SLOPE_TOLERANCE: Final = 0.1
OL_NETWORK_SLOPE: Final = -0.5
#: Spec §7 C: the MVUE's non-private error falls geometrically at the rate log β* per round (German
#: RGG); checked within 10 % (an allowance of this book: the spec states no tolerance).
MVUE_RATE_TOLERANCE: Final = 0.10
#: Spec §7 C: CoP against ε has slope −1 under the authors' calibration (±0.05) for all four mechanisms;
#: under the paper's, −2 except Network DP on the US grid (−1), where the a_i/ε term dominates. The fitted
#: slope is a Monte Carlo estimate (10 draws per ε, heavy-tailed on the German households): the check
#: allows ±0.05 plus EPS_SLOPE_Z Monte Carlo standard errors of the slope (an allowance of this book).
EPS_SLOPE_TOLERANCE: Final = 0.05
EPS_SLOPE_Z: Final = 3.0
EPS_SLOPES: Final = {
    "authors_code": {m: -1.0 for m in ("MVUE-S", "MVUE-N", "OL-S", "OL-N")},
    "paper": {"MVUE-S": -2.0, "OL-S": -2.0, "MVUE-N": -2.0, "OL-N": -2.0},
    "paper/us_power_grid": {"MVUE-S": -2.0, "OL-S": -2.0, "MVUE-N": -1.0, "OL-N": -1.0},
}
#: Spec §7 D [exact RMS]: US non-private errors at T = 100 (OL against m_θ, MVUE against m̂), ±15 %.
US_NONPRIVATE: Final = {"OL-S": 1.48, "OL-N": 5.15, "MVUE": 6.09}
US_TOLERANCE: Final = 0.15
#: Spec §7 D [sim]: US Figure 7, 10-draw mean CoP over ε = 1/16 … 8 (authors' calibration), ±15 %.
US_FIG7_COP: Final = {
    "OL-N": (77.5, 39.2, 19.6, 9.77, 4.86, 2.44, 1.24, 0.61),
    "MVUE-N": (98.6, 47.5, 24.5, 12.3, 6.16, 2.94, 1.58, 0.76),
}
FIG7_EPS: Final = (0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
#: Spec §7 D [sim]: US Signal-DP 10-draw mean CoP at ε = 1/16 (authors' calibration), ±15 %.
US_FIG7_SIGNAL_FIRST: Final = {"MVUE-S": 0.124, "OL-S": 0.033}
#: Spec §7 D: on the US grid Signal DP is negligible (CoP/CoD < 3 % over the grid, paper §5.3) and
#: Network-DP CoP exceeds Signal-DP CoP more than 10³-fold at every ε. The spec's own 10-draw means bear the
#: factor out for online learning (77.5/0.033 ≈ 2.3 × 10³) but not for the MVUE (98.6/0.124 ≈ 8 × 10²):
#: the MVUE pair is checked through the spec's MVUE-N curve and MVUE-S value instead of a factor.
US_SIGNAL_SHARE: Final = 0.03
US_NETWORK_FACTOR: Final = 1e3
#: Spec §7 D [exact, heavy-tailed]: German CoP ≈ 0.27/ε (OL-S) and ≈ 3.5/ε (OL-N) under the authors'
#: calibration, within a factor of 2.
GERMAN_OL_COP: Final = {"OL-S": 0.27, "OL-N": 3.5}
GERMAN_FACTOR: Final = 2.0


def _within(value: float, target: float, tol: float) -> bool:
    return bool(abs(value - target) <= tol)


def graph_checks(facts: Mapping[str, Mapping[str, float]]) -> list[Check]:
    """Spec §7 A: sizes (paper §5.1) and spectra ([exact]) of each dataset's network.

    ``facts``: dataset → {"n", "m", "beta_star", "lambda_n", "a_max", "connected"}.
    """
    out: list[Check] = []
    sizes = {"us_power_grid": GRID_SIZE, "german_households": GERMAN_SIZE}
    for name, f in facts.items():
        n, m = sizes[name]
        out.append((f"{name}: n = {n}, m = {m}, connected (paper §5.1)",
                    (f["n"], f["m"]) == (n, m) and bool(f["connected"]),
                    f"n = {f['n']}, m = {f['m']}"))  # fmt: skip
        for key, (target, tol) in SPECTRA[name].items():
            out.append((f"{name}: {key} = {target:g} ± {tol:g} (spec §7 A, exact)",
                        _within(f[key], target, tol), f"{key} = {f[key]:.7g}"))  # fmt: skip
    return out


def german_law_checks(mu: float, sigma: float, tolerance: float = 0.01) -> list[Check]:
    """§5.1: the stand-in consumption refits to log-normal μ = 1.67, σ = 1.04 (within ``tolerance``)."""
    return [(f"German consumption: log-normal μ = {GERMAN_LAW[0]}, σ = {GERMAN_LAW[1]} (paper §5.1)",
             _within(mu, GERMAN_LAW[0], tolerance) and _within(sigma, GERMAN_LAW[1], tolerance),
             f"fitted μ = {mu:.4f}, σ = {sigma:.4f}")]  # fmt: skip


def moment_checks(rows: Sequence[Mapping[str, float | str]], average_gap: float) -> list[Check]:
    """Spec §7 B: Monte Carlo second moments within 5 % of the exact formulas; network-average invariant.

    ``rows``: {"algorithm", "quantity", "exact", "monte_carlo"} per algorithm and quantity.
    """
    out: list[Check] = []
    for r in rows:
        rel = abs(float(r["monte_carlo"]) / float(r["exact"]) - 1)
        out.append((f"{r['algorithm']}: Monte Carlo E{r['quantity']} within 5 % of the exact formula",
                    rel <= MOMENT_TOLERANCE, f"exact {float(r['exact']):.4f}, Monte Carlo "
                    f"{float(r['monte_carlo']):.4f} ({rel:.1%} apart)"))  # fmt: skip
    out.append(("network average = running mean of the inputs, every algorithm and round",
                average_gap <= AVERAGE_TOLERANCE, f"largest gap {average_gap:.1e}"))  # fmt: skip
    return out


def bound_checks(rows: Sequence[Mapping[str, float | str]]) -> list[Check]:
    """Theorems 3.1, 4.1, 4.2: the mean total error never exceeds the bound.

    ``rows``: {"case", "error", "bound"}.
    """
    return [(f"{r['case']}: mean total error ≤ the theorem's bound", float(r["error"]) <= float(r["bound"]),
             f"{float(r['error']):.4g} ≤ {float(r['bound']):.4g}") for r in rows]  # fmt: skip


def slope_checks(rows: Sequence[Mapping[str, float | str]]) -> list[Check]:
    """Spec §7 C: fitted slopes within ±0.1 of their prediction.

    ``rows``: {"dataset", "algorithm", "quantity", "window", "slope", "predicted", "basis"}; ``basis``
    says where the prediction comes from.
    """
    return [(f"{r['dataset']} {r['algorithm']} {r['quantity']}: slope over t ∈ {r['window']} within ±"
             f"{SLOPE_TOLERANCE:g} of {float(r['predicted']):.2f} ({r['basis']})",
             _within(float(r["slope"]), float(r["predicted"]), SLOPE_TOLERANCE),
             f"fitted {float(r['slope']):.3f}") for r in rows]  # fmt: skip


def mvue_rate_check(rate: float, beta_star: float, window: str) -> list[Check]:
    """Spec §7 C: the German MVUE error falls per round at the rate ``log β*`` (within 10 %)."""
    target = float(np.log(beta_star))
    return [(f"German MVUE without DP: log-error per round over t ∈ {window} → log β* = {target:.5f} (±10 %)",
             abs(rate / target - 1) <= MVUE_RATE_TOLERANCE, f"fitted {rate:.5f}")]  # fmt: skip


def eps_slope_checks(slopes: Mapping[tuple[str, str, str], tuple[float, float]]) -> list[Check]:
    """Spec §7 C: slope of the mean CoP against ε.

    ``slopes``: (dataset, calibration, mechanism) → (fitted slope, its Monte Carlo standard error).
    """
    out: list[Check] = []
    for (dataset, calibration, mechanism), (slope, se) in slopes.items():
        table = EPS_SLOPES.get(f"{calibration}/{dataset}", EPS_SLOPES[calibration])
        target = table[mechanism]
        tol = EPS_SLOPE_TOLERANCE + EPS_SLOPE_Z * se
        out.append((f"{dataset} {mechanism}, {calibration} calibration: CoP ∝ ε^{target:g} "
                    f"(±{EPS_SLOPE_TOLERANCE:g} + {EPS_SLOPE_Z:g} s.e.)",
                    _within(slope, target, tol), f"fitted {slope:.3f}, s.e. {se:.3f}"))  # fmt: skip
    return out


def us_nonprivate_checks(errors: Mapping[str, float]) -> list[Check]:
    """Spec §7 D: US non-private errors at T = 100 within 15 % of the spec's exact RMS; Alg 4 < 5 < 3."""
    out: list[Check] = [(f"US {k} without DP: error at T = 100 ≈ {v} (±15 %, spec exact RMS)",
                         abs(errors[k] / v - 1) <= US_TOLERANCE, f"{errors[k]:.3f}")
                        for k, v in US_NONPRIVATE.items()]  # fmt: skip
    out.append(("US without DP: Algorithm 4 beats Algorithm 5, both beat Algorithm 3 (§5.3)",
                errors["OL-S"] < errors["OL-N"] < errors["MVUE"],
                f"{errors['OL-S']:.3f} < {errors['OL-N']:.3f} < {errors['MVUE']:.3f}"))  # fmt: skip
    return out


def us_figure7_checks(mean_cop: Mapping[str, Sequence[float]], cod: Mapping[str, float]) -> list[Check]:
    """Spec §7 D on the US grid, authors' calibration, ε = 1/16 … 8 (10-draw means of CoP by mechanism,
    the first entry at ε = 1/16)."""
    out: list[Check] = []
    for k, published in US_FIG7_COP.items():
        ratios = np.asarray(mean_cop[k]) / np.asarray(published)
        out.append((f"US {k}: 10-draw mean CoP over ε = 1/16 … 8 within 15 % of the spec's simulation",
                    bool(np.all(np.abs(ratios - 1) <= US_TOLERANCE)),
                    "ratios " + ", ".join(f"{r:.2f}" for r in ratios)))  # fmt: skip
    for k in ("MVUE-S", "OL-S"):
        share = np.asarray(mean_cop[k]) / cod[k]
        out.append((f"US {k}: Signal DP is negligible, CoP/CoD < 3 % at every ε (§5.3)",
                    bool(np.all(share < US_SIGNAL_SHARE)), f"largest {share.max():.2%}"))  # fmt: skip
    for k, published in US_FIG7_SIGNAL_FIRST.items():
        ratio = float(mean_cop[k][0]) / published
        out.append((f"US {k}: 10-draw mean CoP at ε = 1/16 ≈ {published} (±15 %, spec simulation)",
                    abs(ratio - 1) <= US_TOLERANCE,
                    f"{float(mean_cop[k][0]):.4f} (ratio {ratio:.2f})"))  # fmt: skip
    factor = np.asarray(mean_cop["OL-N"]) / np.asarray(mean_cop["OL-S"])
    out.append((f"US: OL-N CoP exceeds OL-S CoP more than {US_NETWORK_FACTOR:.0f}-fold at every ε",
                bool(np.all(factor > US_NETWORK_FACTOR)),
                f"smallest factor {factor.min():.3g}"))  # fmt: skip
    return out


def german_ol_checks(cop_at_one: Mapping[str, float]) -> list[Check]:
    """Spec §7 D: German OL CoP at ε = 1 (authors' calibration) within a factor 2 of 0.27 / 3.5."""
    return [(f"German {k}: CoP at ε = 1 ≈ {v} (within a factor {GERMAN_FACTOR:g}; spec, exact)",
             1 / GERMAN_FACTOR <= cop_at_one[k] / v <= GERMAN_FACTOR, f"{cop_at_one[k]:.3f}")
            for k, v in GERMAN_OL_COP.items()]  # fmt: skip


def qualitative_checks(
    rows: Sequence[Mapping[str, float | str]], monotone: Mapping[str, bool]
) -> list[Check]:
    """Spec §7 E: triangle inequality per run, Network ≥ Signal CoP, CoP decreasing in ε.

    ``rows``: Figure 7's runs {"cop", "te", "cod"}; ``monotone``: label → whether the mean CoP decreases.
    """
    cop = np.array([float(r["cop"]) for r in rows])
    te = np.array([float(r["te"]) for r in rows])
    cod = np.array([float(r["cod"]) for r in rows])
    slack = 1e-9 * (1 + cop + cod)
    ok = bool(np.all((te <= cop + cod + slack) & (te >= np.abs(cop - cod) - slack)))
    out: list[Check] = [("|CoP − CoD| ≤ TE ≤ CoP + CoD in every run", ok, f"{len(rows)} runs")]
    out += [(f"{label}: mean CoP decreases as ε grows", passed, "") for label, passed in monotone.items()]
    return out
