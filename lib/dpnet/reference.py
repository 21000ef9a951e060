"""Numbers published in the papers, for checking the companion's results against them.

Each constant cites where it comes from. These are the papers' outputs (read off their figures or
text), never the companion's: the chapters compare what they compute against them and record the
outcome for the reproducibility report.
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numpy.typing import ArrayLike

#: Paper 003, Figure 1 (right), ε*_RR heat map as published (2 decimals). Rows n = 25, 50, 75, 100;
#: columns p = 0.6, 0.7, 0.8, 0.9. Computed by the authors as the argmin of |β_IND − β_RR(ε)|
#: over numpy.linspace(0, 5, 100).
FIG1_N: Final = (25, 50, 75, 100)
FIG1_P: Final = (0.6, 0.7, 0.8, 0.9)
FIG1_ALPHA: Final = 0.05
FIG1_EPS_GRID: Final = {"start": 0.0, "stop": 5.0, "num": 100}
FIG1_RR_CRITICAL_BUDGET: Final = (
    (0.35, 0.40, 0.30, 0.45),
    (0.15, 0.25, 0.20, 0.30),
    (0.20, 0.15, 0.15, 0.25),
    (0.15, 0.15, 0.15, 0.20),
)

#: Paper 003, Figure 2 (right), ε*_Laplace heat map as published: one unseeded run of the authors'
#: notebook with 5000 + 5000 draws per ε (same rows and columns as Figure 1).
FIG2_LAPLACE_CRITICAL_BUDGET: Final = (
    (0.45, 0.45, 0.56, 0.81),
    (0.35, 0.35, 0.35, 0.56),
    (0.25, 0.25, 0.30, 0.45),
    (0.20, 0.20, 0.25, 0.40),
)
#: Half-width within which an independent Monte Carlo run should land on the published Figure 2
#: cells: the spec's three seeds of the notebook's procedure landed within it, except the flat-curve
#: cell n = 25, p = 0.6, whose argmin ranged over 0.25–0.51 (spec 003 §6, Fig 2; §9 item 19).
FIG2_TOLERANCE: Final = 0.15
FIG2_SAMPLES: Final = 5000
FIG2_FLAT_CELL: Final = (25, 0.6)

#: Paper 003, §2: "ε* < 1 in all cases" for both mechanisms.
CLAIMED_MAX_CRITICAL_BUDGET: Final = 1.0


def is_figure1_setting(
    n_values: list[int], p_values: list[float], alpha: float, eps: object, mc_samples: int
) -> bool:
    """True when a run uses the paper's Figure 1–2 setting, so the published numbers apply.

    The Figure 2 tolerance was calibrated with the paper's 5000 + 5000 draws, hence ``mc_samples``.
    """
    grid = np.linspace(FIG1_EPS_GRID["start"], FIG1_EPS_GRID["stop"], FIG1_EPS_GRID["num"])
    eps_arr = np.asarray(eps, dtype=float)
    return (
        tuple(n_values) == FIG1_N
        and tuple(p_values) == FIG1_P
        and alpha == FIG1_ALPHA
        and eps_arr.shape == grid.shape
        and bool(np.allclose(eps_arr, grid, rtol=0, atol=1e-12))
        and mc_samples == FIG2_SAMPLES
    )


#: A check of a published item: (claim, passed, detail).
Check = tuple[str, bool, str]

FIG2_DEVIATION: Final = (
    "Laplace noise per state instead of per log-likelihood ratio",
    "The published Figure 2 comes from the authors' notebook, which adds independent Lap(Δ/ε) noise to the "
    "log-likelihood of each state: twice the variance of the single Lap(Δ/ε) on each LLR that the paper's "
    "§2 describes. The chapter shows the paper-faithful model as the main result, the notebook's beside it.",
)


def figure1_checks(rr_star: ArrayLike, rr_star_inf: ArrayLike) -> list[Check]:
    """Figure 1 on the paper's grid: the published heat map, ε* < 1, and ε* decreasing with n."""
    grid, exact = np.asarray(rr_star, dtype=float), np.asarray(rr_star_inf, dtype=float)
    published = np.array(FIG1_RR_CRITICAL_BUDGET)
    diff = np.max(np.abs(np.round(grid, 2) - published))
    return [
        ("ε*_RR heat map equals the published one cell for cell (2 decimals)", bool(diff == 0),
         f"largest cell difference {diff:.2f}"),
        ("ε*_RR < 1 in every cell (paper §2)", bool(np.all(grid < CLAIMED_MAX_CRITICAL_BUDGET)),
         f"max {grid.max():.4f}"),
        ("ε*_RR < 1 also for the exact infimum", bool(np.all(exact < CLAIMED_MAX_CRITICAL_BUDGET)),
         f"max {exact.max():.4f}"),
        ("ε*_RR decreases with n: row n = 100 ≤ row n = 25 for every p", bool(np.all(grid[-1] <= grid[0])),
         f"n = 100: {np.round(grid[-1], 2).tolist()}; n = 25: {np.round(grid[0], 2).tolist()}"),
    ]  # fmt: skip


def figure2_gap(table: ArrayLike) -> np.ndarray:
    """|ε* − published Figure 2 ε*| per cell, with the flat-curve cell set to 0."""
    gap = np.abs(np.asarray(table, dtype=float) - np.array(FIG2_LAPLACE_CRITICAL_BUDGET))
    gap[FIG1_N.index(FIG2_FLAT_CELL[0]), FIG1_P.index(FIG2_FLAT_CELL[1])] = 0.0
    return gap


def figure2_checks(lap_star_paper: ArrayLike, lap_star_published: ArrayLike) -> list[Check]:
    """Figure 2 on the paper's grid: which noise model the published heat map comes from, and ε* < 1.

    Takes the median ε* over repeated Monte Carlo runs for each model.
    """
    paper, as_published = np.asarray(lap_star_paper, dtype=float), np.asarray(lap_star_published, dtype=float)
    gap, paper_gap = figure2_gap(as_published), figure2_gap(paper)
    return [
        (f"as-published ε* within ±{FIG2_TOLERANCE} of the published heat map "
         "(except the flat-curve cell n = 25, p = 0.6)", bool(np.all(gap <= FIG2_TOLERANCE + 1e-9)),
         f"largest difference {gap.max():.3f}"),
        (f"the paper-faithful model does not fit the published heat map (a cell off by > {FIG2_TOLERANCE}):"
         " the deviation is needed", bool(np.any(paper_gap > FIG2_TOLERANCE + 1e-9)),
         f"largest difference {paper_gap.max():.3f}"),
        ("ε*_Laplace < 1 in every cell (paper-faithful; paper §2)",
         bool(np.all(paper < CLAIMED_MAX_CRITICAL_BUDGET)), f"max {paper.max():.4f}"),
        ("ε*_Laplace < 1 in every cell (as-published; paper §2)",
         bool(np.all(as_published < CLAIMED_MAX_CRITICAL_BUDGET)), f"max {as_published.max():.4f}"),
        ("ε*_Laplace is largest at p = 0.9 for every n (as-published; paper Fig 2 caption)",
         bool(np.all(np.argmax(as_published, axis=1) == len(FIG1_P) - 1)),
         f"argmax columns {np.argmax(as_published, axis=1).tolist()}"),
    ]  # fmt: skip


# --------------------------------------------------------------------------------------------------
# Paper 003 Table 1 and paper 000 Table 2: communication complexity (chapter distributed-mle)
# --------------------------------------------------------------------------------------------------

#: Paper 003's experiments: five hospitals on the complete graph, α = 1 − β = 0.05 (§5, Fig 14.1).
TABLE1_N: Final = 5
TABLE1_GRAPH: Final = "complete"
TABLE1_ALPHA: Final = 0.05
TABLE1_BETA: Final = 0.95

#: The authors' notebook sets K = ⌈|Θ| log(|Θ|/η)⌉ (spec 003 §3.3 [run], §9 item 5): with |Θ| = 2 states,
#: K = 8, 9, 6 for η = max{α, 1 − β} = 0.05, 0.025, 0.1.
CODE_ROUNDS: Final = {0.05: 8, 0.025: 9, 0.1: 6}
CODE_ROUNDS_STATES: Final = 2

#: The ACTG 175 runs of Fig 14.1a (spec 003 §3.3 [run]): n = 5 on K_5 (a* = 0.375), Θ = {0, −log 2}, the
#: notebook's (bug-inflated) Cox log-likelihoods with Γ ≈ 1008 and gap l = 276.2, Δ = 2 B_θ B_x = 2 log 2,
#: ε = 1, α = 1 − β = 0.05, ϱ = 1.5. The notebook's formulas give K = 8 rounds of T = 21 iterations.
ACTG_SETTING: Final = {
    "n": 5, "n_states": 2, "n_mle": 1, "gamma": 1008.0, "gap": 276.2, "delta": 2 * float(np.log(2.0)),
    "eps": 1.0, "alpha": 0.05, "beta": 0.95, "rho": 1.5, "a_star": 0.375,
}  # fmt: skip
ACTG_CODE_K_T: Final = (8, 21)
#: Laplace scale of those runs: Δ K |Θ|/ε = 22.18 in the paper (Thm 4.2), 44.36 in the notebook (spec D2).
ACTG_NOISE: Final = (22.18, 44.36)
ACTG_NOISE_TOLERANCE: Final = 0.005

#: Metropolis–Hastings constants for n = 5 (spec 000 §4(a) item 3, spec 003 §9 item 4): (b*, a*).
SPECTRAL_N5: Final = {
    "complete": (0.25, 0.375),
    "cycle": (0.809017, 0.654508),
    "star": (0.75, 0.875),
    "path": (0.809017, 0.904508),
}
SPECTRAL_TOLERANCE: Final = 1e-6

#: Paper 000 rounds (spec 000 §4(a) item 2) with |Θ| = 3, |Θ*| = 1, η₁ = η₂ = 0.05, π₁ = π₂ = 0.5, before
#: rounding up: K_AM = |Θ̄| log(|Θ*|/η₂), K_GM = |Θ*| log(|Θ̄|/η₁), K when |Θ*| is unknown, and the
#: two-threshold K₁, K₂ (Thm 3.3).
SPEC000_ROUNDS: Final = {
    "am": 5.99146,
    "gm": 3.68888,
    "unknown": 12.2830,
    "thres_1": 7.37776,
    "thres_2": 5.99146,
}
SPEC000_ROUNDS_CEIL: Final = {"am": 6, "gm": 4, "unknown": 13, "thres_1": 8, "thres_2": 6}
#: Decimals to which :data:`SPEC000_ROUNDS` are printed: a computed K matches when it rounds to them.
SPEC000_ROUNDS_DECIMALS: Final = {"am": 5, "gm": 5, "unknown": 4, "thres_1": 5, "thres_2": 5}
#: Cor 3.4 (000) / 4.4 (003) density boundaries ½ ∓ ½ √((|Θ| − 4)/|Θ|) (spec 000 §4(a) item 5).
SPEC000_BOUNDARIES: Final = {5: (0.276393, 0.723607), 10: (0.112702, 0.887298), 20: (0.052786, 0.947214)}
#: Bernoulli sensitivity with Θ = {0.3, 0.5, 0.7} and n_i = 20 signals: 20 log(7/3) (spec 000 §4(a) item 6).
SPEC000_SENSITIVITY: Final = 16.945957
#: Thm 3.2 (000) on the spec's pilot instance (spec 000 §4(c)): Θ = {0.3, 0.5, 0.7}, n = 5 on C_5, Γ = 20.69,
#: gap 5.686, ϱ = 5, ε = 1, Δ_i = 16.945957: (K, T) = (6, 23) for AM and (4, 26) for GM.
SPEC000_PILOT: Final = {"gamma": 20.69, "gap": 5.686, "rho": 5.0, "eps": 1.0, "am": (6, 23), "gm": (4, 26)}

TABLE1_DEVIATIONS: Final = (
    (
        "Noise twice the paper's in the authors' code",
        "The notebook that produced the published ACTG runs draws Lap(2KΔ|Θ|/ε) noise, twice the scale "
        "KΔ|Θ|/ε of Theorems 4.1–4.5 (spec 003 D2). The chapter uses the paper's scale and prints both.",
    ),
    (
        "K and T from the summary formulas in the authors' code",
        "The notebook sets K = ⌈|Θ| log(|Θ|/η)⌉ and "
        "T = ⌈|Θ| max{log(n/l), log(|Θ|(Γ + Δ/ε)/(ϱη))/log(1/a*)}⌉, the orders of Table 1 with unit "
        "constants, not the exact conditions of Theorems 4.1–4.2 "
        "(spec 003 D4). The chapter tabulates both.",
    ),
)


def is_table1_setting(n_agents: int, graph: str, alpha: float, beta: float) -> bool:
    """True when a run uses the network and error targets of paper 003's experiments (n = 5, K_5, 0.05)."""
    return n_agents == TABLE1_N and graph == TABLE1_GRAPH and alpha == TABLE1_ALPHA and beta == TABLE1_BETA


def table1_checks(
    code_rounds: dict[float, int],
    actg_k_t: tuple[int, int],
    actg_noise: tuple[float, float],
    constants: tuple[float, float],
    eps_slope: tuple[float, float],
) -> list[Check]:
    """Paper 003 Table 1 and the constants behind it.

    Parameters
    ----------
    code_rounds
        The authors' code K for each η of :data:`CODE_ROUNDS` (|Θ| = 2).
    actg_k_t
        (K, T) of the authors' code formulas in the ACTG setting (:data:`ACTG_SETTING`).
    actg_noise
        Laplace scale of the ACTG runs with the paper's and with the code's convention.
    constants
        (b*, a*) of the Metropolis–Hastings weights of the run's graph (K_5 in the paper's setting).
    eps_slope
        (measured, predicted): the growth of Thm 4.2's T per unit of log(1/ε) at small ε and fixed ϱ, and
        Table 1's 1/log(1/a*) (the AM/GM row's ε column and n column together).
    """
    b_star, a_star = constants
    want_b, want_a = SPECTRAL_N5[TABLE1_GRAPH]
    slope, predicted = eps_slope
    paper_noise, code_noise = actg_noise
    return [
        ("authors' code K = ⌈|Θ| log(|Θ|/η)⌉ = 8, 9, 6 for η = 0.05, 0.025, 0.1 (|Θ| = 2)",
         dict(code_rounds) == CODE_ROUNDS, f"computed {dict(code_rounds)}"),
        ("authors' code K = 8, T = 21 in the ACTG setting (Fig 14.1a)", tuple(actg_k_t) == ACTG_CODE_K_T,
         f"computed K = {actg_k_t[0]}, T = {actg_k_t[1]}"),
        ("ACTG noise scale KΔ|Θ|/ε = 22.18 (paper), 44.36 in the authors' code",
         abs(paper_noise - ACTG_NOISE[0]) <= ACTG_NOISE_TOLERANCE
         and abs(code_noise - ACTG_NOISE[1]) <= ACTG_NOISE_TOLERANCE,
         f"computed {paper_noise:.4f} and {code_noise:.4f}"),
        ("Metropolis–Hastings weights on K_5: b* = 0.25, a* = 0.375",
         abs(b_star - want_b) <= SPECTRAL_TOLERANCE and abs(a_star - want_a) <= SPECTRAL_TOLERANCE,
         f"computed b* = {b_star:.6f}, a* = {a_star:.6f}"),
        ("Table 1 (AM/GM): T grows like log(1/ε)/log(1/a*) as ε → 0 at fixed ϱ (within 2 %)",
         abs(slope / predicted - 1) <= 0.02, f"measured slope {slope:.4f}, 1/log(1/a*) = {predicted:.4f}"),
    ]  # fmt: skip


def table2_checks(
    rounds: dict[str, float],
    rounds_ceil: dict[str, int],
    spectral: dict[str, tuple[float, float]],
    boundaries: dict[int, tuple[float, float]],
    sensitivity: float,
    pilot: dict[str, tuple[int, int]],
) -> list[Check]:
    """Paper 000 Table 2: the exact constants of spec 000 §4(a) computed from the library's formulas.

    ``rounds``/``rounds_ceil`` hold the real-valued and rounded-up K of :data:`SPEC000_ROUNDS`; ``spectral``
    maps each graph family (n = 5) to (b*, a*); ``boundaries`` maps |Θ| to Cor 3.4's two densities;
    ``sensitivity`` is Δ_i of :data:`SPEC000_SENSITIVITY`; ``pilot`` the (K, T) of Thm 3.2 for "am" and "gm".
    """
    worst_rounds = max(
        abs(round(rounds[k], SPEC000_ROUNDS_DECIMALS[k]) - v) for k, v in SPEC000_ROUNDS.items()
    )
    worst_spectral = max(
        max(abs(spectral[g][0] - b), abs(spectral[g][1] - a)) for g, (b, a) in SPECTRAL_N5.items()
    )
    worst_boundary = max(
        max(abs(boundaries[m][0] - lo), abs(boundaries[m][1] - hi))
        for m, (lo, hi) in SPEC000_BOUNDARIES.items()
    )
    return [
        ("rounds K_AM, K_GM, K (|Θ*| unknown), K₁, K₂ = 5.99146, 3.68888, 12.2830, 7.37776, 5.99146",
         worst_rounds < 1e-12, f"largest difference at the printed decimals {worst_rounds:.1e}"),
        ("rounded up: 6, 4, 13, 8, 6", dict(rounds_ceil) == SPEC000_ROUNDS_CEIL,
         f"computed {dict(rounds_ceil)}"),
        ("(β*, α*) of K_5, C_5, K_1,4, P_5 as in spec 000 §4(a) item 3",
         worst_spectral <= SPECTRAL_TOLERANCE, f"largest difference {worst_spectral:.2e}"),
        ("Cor 3.4 density boundaries for |Θ| = 5, 10, 20", worst_boundary <= SPECTRAL_TOLERANCE,
         f"largest difference {worst_boundary:.2e}"),
        ("Bernoulli sensitivity 20 log(7/3) = 16.945957", abs(sensitivity - SPEC000_SENSITIVITY) <= 1e-6,
         f"computed {sensitivity:.6f}"),
        ("Thm 3.2 on the spec's pilot instance: (K, T) = (6, 23) for AM and (4, 26) for GM",
         tuple(pilot["am"]) == SPEC000_PILOT["am"] and tuple(pilot["gm"]) == SPEC000_PILOT["gm"],
         f"computed AM {tuple(pilot['am'])}, GM {tuple(pilot['gm'])}"),
    ]  # fmt: skip


# ----------------------------------------------------------------------------------------------------------
# Paper 003 §2.1, §5, §14.1, §14.5: the clinical data (spec 003 §5, §6, §9 items 8–15)

#: ACTG 175 patients and events per arm (spec §9 item 8), arms in the CSV's ``trt`` order.
ACTG_ARM_SIZES: Final = {"ZDV": 532, "ZDV+ddI": 522, "ZDV+Zal": 524, "ddI": 561}
ACTG_ARM_EVENTS: Final = {"ZDV": 181, "ZDV+ddI": 103, "ZDV+Zal": 109, "ddI": 128}
#: Fig 3(c), pooled ddI vs ZDV (unpenalised lifelines fit): log HR and Wald p; the paper's claims
#: "pooled p < 0.001" and, for one hospital, "p = 0.9" (spec §9 items 10–11).
FIG3_POOLED: Final = {"coef": -0.528, "p": 4.9e-6}
FIG3_ONE_HOSPITAL_P: Final = 0.90
#: Fig 4(c), pairwise log HRs vs ZDV (spec §9 item 12); the best arm is ZDV+ddI.
FIG4_PAIRWISE: Final = {"ZDV+ddI": -0.704, "ZDV+Zal": -0.640, "ddI": -0.528}
FIG4_BEST_ARM: Final = "ZDV+ddI"
#: Coefficient tolerance and relative p-value tolerance of spec §9's survival fits.
COEF_TOLERANCE: Final = 0.005
P_RELATIVE_TOLERANCE: Final = 0.10
#: Λ(−log 2) − Λ(0) on ACTG ddI vs ZDV (spec §9 item 13): paper's likelihood pooled and summed over
#: the 5-way round-robin split; the notebook's likelihood likewise (legacy values depend on tie order).
LAMBDA_GAP: Final = {"paper": 9.631, "paper_5": 9.538, "as_published": 273.17, "as_published_5": 276.2}
LAMBDA_GAP_TOLERANCE: Final = {"paper": 1e-3, "as_published": 0.05}
#: §5: centralised composite test P < 1e−4; distributed test P < 1e−5.
CLAIM_CENTRAL_P: Final = 1e-4
CLAIM_DISTRIBUTED_P: Final = 1e-5
#: Spec §9 item 15: T → ∞ oracle on ACTG (n = 5, K = 8, ε = 1): P(GM selects −log 2) and the mean AM
#: belief on it, with the paper's likelihood and noise, and with the notebook's (±0.05).
ORACLE_SUCCESS: Final = {
    "paper": {"GM": 0.61, "AM belief": 0.54},
    "as_published": {"GM": 1.00, "AM belief": 0.92},
}
ORACLE_TOLERANCE: Final = 0.05
#: Fig 14.3(c) raw-TMB Cox log HR (pooled) and the TMB groups' sizes (spec §9 items 9, 14).
FIG143_RAW_COEF: Final = -0.01776
TMB_GROUP_SIZES: Final = (166, 166, 1330)
#: Spec §9 item 14: Λ(log 0.15) − Λ(0) with raw TMB and with the top-10 % indicator.
TMB_LAMBDA_GAP: Final = {"raw": -11640.5, "top10": 8.27}
TMB_GAP_TOLERANCE: Final = {"raw": 0.1, "top10": 0.01}


def _close(value: float, want: float, tol: float) -> bool:
    return bool(abs(value - want) <= tol)


def _rel(value: float, want: float, tol: float = P_RELATIVE_TOLERANCE) -> bool:
    return bool(abs(value / want - 1) <= tol)


def actg_data_checks(sizes: dict[str, int], events: dict[str, int], subset: int) -> list[Check]:
    """Spec §9 item 8: ACTG arm sizes, events and the ZDV ∪ ddI subset (exact)."""
    return [
        ("ACTG 175: arm sizes 532/522/524/561", sizes == ACTG_ARM_SIZES, f"computed {sizes}"),
        ("ACTG 175: events 181/103/109/128", events == ACTG_ARM_EVENTS, f"computed {events}"),
        ("ZDV ∪ ddI subset has 1093 patients", subset == 1093, f"computed {subset}"),
    ]


def figure3_checks(pooled: dict[str, float], one_hospital_p: float) -> list[Check]:
    """Fig 3(c): pooled log HR and p (spec §9 item 10), one hospital of the 10-way split (item 11)."""
    return [
        ("pooled ddI vs ZDV log HR −0.528 (±0.005)",
         _close(pooled["coef"], FIG3_POOLED["coef"], COEF_TOLERANCE), f"computed {pooled['coef']:.4f}"),
        ("pooled p = 4.9e−6 (±10 %), so p < 0.001 as claimed", _rel(pooled["p"], FIG3_POOLED["p"]),
         f"computed {pooled['p']:.3g}"),
        ("one hospital (centre 1 of the 10-way split): p = 0.90 (±10 %), not significant",
         _rel(one_hospital_p, FIG3_ONE_HOSPITAL_P), f"computed {one_hospital_p:.3f}"),
    ]  # fmt: skip


def figure4_checks(pairwise: dict[str, float]) -> list[Check]:
    """Fig 4(c): pairwise log HRs vs ZDV (spec §9 item 12) and the best arm."""
    best = min(pairwise, key=pairwise.get)
    return [
        *[(f"{arm} vs ZDV log HR {want:+.3f} (±0.005)", _close(pairwise[arm], want, COEF_TOLERANCE),
           f"computed {pairwise[arm]:+.4f}") for arm, want in FIG4_PAIRWISE.items()],
        ("the best arm is ZDV+ddI", best == FIG4_BEST_ARM, f"computed {best}"),
    ]  # fmt: skip


def lambda_gap_checks(gaps: dict[str, float]) -> list[Check]:
    """Spec §9 item 13: Λ(−log 2) − Λ(0) under both likelihoods, pooled and over the 5-way split."""
    out = []
    for key, want in LAMBDA_GAP.items():
        tol = LAMBDA_GAP_TOLERANCE[key.removesuffix("_5")]
        where = "summed over the 5-way split" if key.endswith("_5") else "pooled"
        name = "paper's" if key.startswith("paper") else "as-published"
        out.append((f"Λ(−log 2) − Λ(0) = {want} with the {name} likelihood, {where}",
                    _close(gaps[key], want, tol), f"computed {gaps[key]:.4f}"))  # fmt: skip
    return out


def success_checks(
    measured: dict[str, dict[str, float]], oracle: dict[str, dict[str, float]], n_reps: int
) -> list[Check]:
    """Spec §9 item 15: the spec's oracle success rates against a precise recomputation (``oracle``), and
    the finite-T Monte Carlo over ``n_reps`` runs (``measured``) against that recomputation: a rate within
    4 binomial standard errors of the oracle's (plus ½/n_reps for the discreteness), the mean AM belief
    within 4 of its measured standard errors (key ``"AM belief se"``)."""
    out = []
    for variant, wants in ORACLE_SUCCESS.items():
        for key, want in wants.items():
            got = oracle[variant][key]
            out.append((f"T → ∞ oracle ({variant}): {key} = {want:.2f} (±{ORACLE_TOLERANCE})",
                        _close(got, want, ORACLE_TOLERANCE), f"recomputed {got:.4f}"))  # fmt: skip
            m = measured[variant][key]
            if key == "AM belief":
                bound = 4 * measured[variant]["AM belief se"]
            else:
                bound = 4 * float(np.sqrt(got * (1 - got) / n_reps)) + 0.5 / n_reps
            out.append((f"finite-T runs ({variant}): {key} within 4 standard errors of the oracle",
                        abs(m - got) <= bound, f"measured {m:.4f}, allowed ±{bound:.4f}"))  # fmt: skip
    return out


def tmb_checks(gaps: dict[str, float], raw_coef: float, group_sizes: tuple[int, ...]) -> list[Check]:
    """Spec §9 items 9 and 14: TMB groups, raw-TMB log HR and Λ(log 0.15) − Λ(0)."""
    return [
        ("TMB groups 166/166/1330", tuple(group_sizes) == TMB_GROUP_SIZES, f"computed {tuple(group_sizes)}"),
        ("raw-TMB log HR −0.01776 (±0.005)", _close(raw_coef, FIG143_RAW_COEF, COEF_TOLERANCE),
         f"computed {raw_coef:.5f}"),
        *[(f"Λ(log 0.15) − Λ(0) = {want:+} with the {key} covariate",
           _close(gaps[key], want, TMB_GAP_TOLERANCE[key]), f"computed {gaps[key]:+.3f}")
          for key, want in TMB_LAMBDA_GAP.items()],
    ]  # fmt: skip
