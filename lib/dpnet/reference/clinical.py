"""Paper 003 §2.1, §5, §14.1, §14.5: the clinical data (chapter ``hypothesis-testing``).

The published numbers and settings of Figures 3, 4, 14.1a–b, 14.3–14.5 and the §5 tests, and the
checks that compare the chapter's results with them. Every check is a :class:`~dpnet.results.Check`
with a name, unique within its item, that the chapter's badges and the report's anchors use. A check
that compares with a published *value* is made only on the published run's setting (``published=``); a
check of a published *claim* is made for any parameters. Where the paper prints no number, the reference
is a fact of the data set or an independent computation (a Cox fit of the whole data set, a run of the
authors' notebook), and the check says so (``against="reference"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import numpy as np

from dpnet.reference._check import every, within
from dpnet.results import Check

#: The catalogue items of chapter ``hypothesis-testing`` (:mod:`dpnet.reference.catalogue`): (paper,
#: name, title, headline claim, name of the check that tests it under the paper's mathematics).
ITEMS: Final[tuple[tuple[str, str, str, str, str], ...]] = (
    ("003", "Fig 3", "ACTG 175 ZDV vs ddI: Kaplan–Meier curves and log hazard ratio",
     "§2.1 and Figure 3: with the patients split equally at random among five hospitals, one hospital's "
     "patients are not enough to detect that ddI lowers the hazard against ZDV, while the pooled trial "
     "does (p < 0.001).", "one-hospital-random-split"),
    ("003", "Fig 4", "ACTG 175 all four arms: Kaplan–Meier curves and log hazard ratios",
     "Figure 4 and §5: of the three treatments, ZDV+ddI lowers the hazard against ZDV the most, the "
     "ground truth the best-treatment runs must recover.", "best-arm"),
    ("003", "Fig 14.1a-b", "ACTG 175 AM/GM and two-threshold beliefs and TVD",
     "Figure 14.1a–b and §14.1, read with Theorem 4.1 and Cor 4.4: with ε = 1 and α = 1 − β = 0.05 on five "
     "centres, GM's set lies inside Θ* = {−log 2} with probability at least 1 − α, AM's set covers it with "
     "probability at least β, and the two-threshold rule returns it exactly with probability at least "
     "β − α.", "recovers-theta-star"),
    ("003", "§5 tests", "Private distributed hypothesis tests on ACTG 175 and their p-values",
     "§5: the distributed hypothesis test of ddI against ZDV produces a p-value P < 10⁻⁵, like the "
     "centralised test's P < 10⁻⁴.", "distributed-p"),
    ("003", "Prop 4.6", "The private distributed test's Type I error",
     "Proposition 4.6: GM run with Theorem 4.2's K and T at Type I target α/2, rejecting when "
     "(n/2^(T−1)) log(ν(1)/ν(0)) exceeds ϱ_c − 1, is an ε-DP test with Type I error at most α.",
     "simple-size"),
    ("003", "Fig 14.3", "Cancer cohort: Kaplan–Meier curves by TMB group and Cox fits",
     "Figure 14.3(c): the pooled Cox log hazard ratio of TMB is negative, its 95 % interval below 0 "
     "(higher TMB, better survival).", "raw-negative"),
    ("003", "Fig 14.4", "Cancer cohort: AM/GM beliefs",
     "Figure 14.4: the private GM and AM estimators yield {log 0.15} as the MLE set, which agrees with "
     "the ground truth.", "raw-mle"),
    ("003", "Fig 14.5", "Cancer cohort: two-threshold beliefs",
     "Figure 14.5: the two-threshold estimator yields {log 0.15} as the MLE set.", "raw-mle"),
)  # fmt: skip

#: ACTG 175 patients and events per arm (facts of the data set), arms in the CSV's ``trt`` order.
ACTG_ARM_SIZES: Final = {"ZDV": 532, "ZDV+ddI": 522, "ZDV+Zal": 524, "ddI": 561}
ACTG_ARM_EVENTS: Final = {"ZDV": 181, "ZDV+ddI": 103, "ZDV+Zal": 109, "ddI": 128}
#: The setting of the published ACTG runs (Fig 14.1a–b and the §5 tests): n = 5 centres on a complete
#: graph, split by the authors' round robin on the CSV row, ε = 1, α = 1 − β = 0.05, ϱ_AM = ϱ_GM = 1.5.
ACTG_RUN: Final = {"n_centers": 5, "split": "round_robin", "eps": 1.0, "alpha": 0.05, "rho": 1.5}
#: Fig 3(b)/4(b): the published "one hospital" is centre 1 of a 10-way split (the notebook's plotting
#: default), not of the 5 hospitals of the text (note ``note-ht-one-hospital``).
FIG3_ONE_HOSPITAL_SPLIT: Final = 10
#: Fig 3(c), pooled ddI vs ZDV (unpenalised lifelines fit): log HR and Wald p of an independent fit of
#: the data set (the paper prints neither: it claims "pooled p < 0.001" and, for one hospital, "p = 0.9").
FIG3_POOLED: Final = {"coef": -0.528, "p": 4.9e-6}
FIG3_ONE_HOSPITAL_P: Final = 0.90
#: §2.1: the pooled test of ddI against ZDV is "statistically significant at p < 0.001".
CLAIM_POOLED_P: Final = 1e-3
#: Fig 4(c), log HRs vs ZDV of reference pairwise Cox fits, each treatment against ZDV on those two arms'
#: patients alone (the paper prints none; note ``note-ht-arm-vs-all``); the best arm is ZDV+ddI.
FIG4_PAIRWISE: Final = {"ZDV+ddI": -0.704, "ZDV+Zal": -0.640, "ddI": -0.528}
FIG4_BEST_ARM: Final = "ZDV+ddI"
#: Coefficient tolerance and relative p-value tolerance of the survival-fit checks.
COEF_TOLERANCE: Final = 0.005
P_RELATIVE_TOLERANCE: Final = 0.10
#: Λ(−log 2) − Λ(0) on ACTG ddI vs ZDV (reference values, which the paper does not print): paper's
#: likelihood pooled and summed over the 5-way round-robin split; the notebook's likelihood likewise.
#: The legacy values depend on the order of tied times, which the notebook left to an unstable,
#: CPU-dependent sort: they are one machine's.
LAMBDA_GAP: Final = {"paper": 9.631, "paper_5": 9.538, "as_published": 273.17, "as_published_5": 276.2}
LAMBDA_GAP_TOLERANCE: Final = {"paper": 1e-3, "as_published": 0.05}
#: §5: the ridge penalty λ_reg of the paper's composite-test fits (the authors' code uses 0.1).
PAPER_PENALIZER: Final = 0.05
#: §5: centralised composite test P < 1e−4; distributed test P < 1e−5.
CLAIM_CENTRAL_P: Final = 1e-4
CLAIM_DISTRIBUTED_P: Final = 1e-5
#: Fig 14.3(c) raw-TMB Cox log HR (pooled) of an independent fit (the paper prints only its sign), and
#: the TMB groups' sizes (⌊N/10⌋, ⌊N/5⌋ − ⌊N/10⌋ and the rest).
FIG143_RAW_COEF: Final = -0.01776
#: The coefficient is given to four significant digits; the general ±0.005 on coefficients would
#: be a 28 % window on a value this small.
FIG143_RAW_COEF_TOLERANCE: Final = 5e-5
TMB_GROUP_SIZES: Final = (166, 166, 1330)
#: Fig 14.4: the log-belief threshold ϱ of the cancer-cohort runs (the paper's; the notebook used 0.01).
FIG144_RHO: Final = 0.1
#: Fig 14.5 (and the notebook): the two-threshold rule's frequency threshold on the cancer cohort.
FIG145_FREQ: Final = 0.5
#: Λ(log 0.15) − Λ(0) under eq. (3) with raw TMB and with the top-10 % indicator (reference values of an
#: independent computation, which the paper does not print; note ``note-ht-tmb-covariate``).
TMB_LAMBDA_GAP: Final = {"raw": -11640.5, "top10": 8.27}
TMB_GAP_TOLERANCE: Final = {"raw": 0.1, "top10": 0.01}
#: The rule for the two patients tied at the top-10 % TMB cut-off
#: (:func:`dpnet.survival.data.top_fraction`) that regenerates the reference top-10 % group, and with it
#: :data:`TMB_LAMBDA_GAP` ``["top10"]``: the later sheet row first.
TMB_TIES: Final = "later_row_first"

#: Deviations of the published items from the paper, as (title, reproduction-notes label).
FIG3_DEVIATION: Final = ("one hospital = centre 1 of a 10-way split", "note-ht-one-hospital")
#: The deviation of the published Figure 4, as (title, reproduction-notes label).
FIG4_DEVIATION: Final = ("centralised hazard ratios are arm vs all others", "note-ht-arm-vs-all")
FIG141_DEVIATIONS: Final = (
    ("tied times in row order in the as-published likelihood", "note-ht-legacy-ties"),
    ("likelihood and noise of the published runs", "note-ht-cox-likelihood"),
    ("K and T from the authors' code formulas", "note-ht-code-schedule"),
)
SEC5_DEVIATIONS: Final = (
    ("the proof ignores the averaged privacy noise", "note-ht-test-noise"),
    ("statistic normalisation and sensitivity bound", "note-ht-test-normalisation"),
)
TMB_DEVIATION: Final = ("top-10 % TMB indicator instead of raw TMB", "note-ht-tmb-covariate")
#: The deviations behind Prop 4.6's checks: the proof's missing noise, and §12's sensitivity.
PROP46_DEVIATIONS: Final = (
    ("the proof ignores the averaged privacy noise", "note-ht-test-noise"),
    ("§12's Δ bounds no neighbour over every data set", "note-ht-sensitivity"),
)
#: Standard errors below a promised probability within which a Monte Carlo rate still meets it.
PROMISE_SE: Final = 4.0


def actg_data_checks(sizes: Mapping[str, int], events: Mapping[str, int]) -> list[Check]:
    """ACTG arm sizes and events (exact; facts of the data set, which the paper does not print)."""
    return [
        Check("ACTG 175: arm sizes 532/522/524/561", dict(sizes) == ACTG_ARM_SIZES, f"computed {dict(sizes)}",
              "arm-sizes", against="reference"),
        Check("ACTG 175: events 181/103/109/128", dict(events) == ACTG_ARM_EVENTS, f"computed {dict(events)}",
              "arm-events", against="reference"),
    ]  # fmt: skip


def figure3_checks(
    pooled: Mapping[str, float], one_hospital_p: float, *, alpha: float, published: bool
) -> list[Check]:
    """Fig 3(c): pooled log HR and p, and one hospital.

    ``one_hospital_p`` is the Wald p of centre 1 of the run's "one hospital" split; ``published``: that
    split is the published panel's (10-way), so its p is compared with the published 0.90. The claim
    that one hospital alone sees no significant effect (at level ``alpha``) is checked for any split.
    """
    coef_bounds, rel_bounds = (-COEF_TOLERANCE, COEF_TOLERANCE), (-P_RELATIVE_TOLERANCE, P_RELATIVE_TOLERANCE)
    checks = [
        Check("pooled, ddI's effect on the hazard against ZDV is significant: p < 0.001 (§2.1)",
              bool(pooled["p"] < CLAIM_POOLED_P), f"computed p = {pooled['p']:.3g}", "pooled-p"),
        # the paper prints neither number: both are an independent fit of the whole data set
        Check("pooled ddI vs ZDV log HR −0.528 (±0.005), as an independent fit of the data set gives",
              within(pooled["coef"] - FIG3_POOLED["coef"], coef_bounds), f"computed {pooled['coef']:.4f}",
              "pooled-coef", against="reference"),
        Check("pooled Wald p = 4.9e−6 (±10 %), as an independent fit of the data set gives",
              within(pooled["p"] / FIG3_POOLED["p"] - 1, rel_bounds), f"computed {pooled['p']:.3g}",
              "pooled-p-value", against="reference"),
    ]  # fmt: skip
    if published:
        checks.append(
            Check("one hospital (centre 1 of the 10-way split): p = 0.90 (±10 %), not significant",
                  within(one_hospital_p / FIG3_ONE_HOSPITAL_P - 1, rel_bounds),
                  f"computed {one_hospital_p:.3f}", "one-hospital-p")
        )  # fmt: skip
    checks.append(
        Check(f"one hospital alone sees no significant effect of ddI (p ≥ α = {alpha:g})",
              bool(one_hospital_p >= alpha), f"computed p = {one_hospital_p:.3f}",
              "one-hospital-not-significant")
    )  # fmt: skip
    return checks


_ARM_NAMES: Final = {"ZDV+ddI": "loghr-zdv-ddi", "ZDV+Zal": "loghr-zdv-zal", "ddI": "loghr-ddi"}


def figure4_checks(pairwise: Mapping[str, float]) -> list[Check]:
    """Fig 4(c): pairwise log HRs vs ZDV and the best arm.

    The published pooled panel shows each arm against all the others
    (:data:`~dpnet.reference.clinical.FIG4_DEVIATION`): the reference values are pairwise fits, each
    treatment against ZDV on those two arms' patients alone, not the paper's."""
    best = min(pairwise, key=pairwise.__getitem__)
    return [
        *[Check(f"{arm} vs ZDV log HR {want:+.3f} (±0.005), as a pairwise fit of the two arms gives",
                within(pairwise[arm] - want, (-COEF_TOLERANCE, COEF_TOLERANCE)),
                f"computed {pairwise[arm]:+.4f}", _ARM_NAMES[arm], against="reference")
          for arm, want in FIG4_PAIRWISE.items()],
        Check("the best arm is ZDV+ddI", best == FIG4_BEST_ARM, f"computed {best}", "best-arm"),
    ]  # fmt: skip


def figure3_split_checks(pooled_p: float, centre_p: Sequence[float], *, alpha: float) -> list[Check]:
    """Figure 3 on the chapter's own split (the text's hospitals): the headline, pooled p < 0.001 while
    centre 1 alone sees no significant effect (p ≥ α); and whether some centre detects the effect on
    its own (``centre_p``: each centre's Wald p, centre 0 first)."""
    one = centre_p[1]
    return [
        Check("pooled, ddI's effect is significant (p < 0.001) while one hospital, centre 1 of the split, "
              f"sees none alone (p ≥ α = {alpha:g})", bool(pooled_p < CLAIM_POOLED_P and one >= alpha),
              f"pooled p = {pooled_p:.3g}, centre 1: p = {one:.3f}", "pooled-not-one"),
        Check(f"some centre of the split detects ddI's effect on its own (p < α = {alpha:g})",
              any(p < alpha for p in centre_p),
              f"{sum(p < alpha for p in centre_p)} of {len(centre_p)} centres", "centre-significant",
              against="reference"),
    ]  # fmt: skip


def figure3_random_split_check(pooled_p: float, hospital_p: Sequence[float], *, alpha: float) -> Check:
    """Figure 3's headline under the paper's own split, "equally at random" among the hospitals: the pooled
    trial detects ddI's effect (p < 0.001) while one hospital's patients are not enough to, that is, a
    hospital's Wald p is at least α more often than not (its median over random splits, ``hospital_p``:
    every hospital of every split, is at least α). Undecided when no hospital p-value is defined."""
    p = np.asarray(hospital_p, dtype=float)
    p = p[np.isfinite(p)]
    if p.size == 0:
        return Check("pooled, ddI's effect is significant (p < 0.001) while a hospital of a random split "
                     "sees none alone, more often than not", None, "no hospital's p-value is defined",
                     "one-hospital-random-split")  # fmt: skip
    median, detect = float(np.median(p)), float(np.mean(p < alpha))
    return Check(
        f"pooled, ddI's effect is significant (p < 0.001) while a hospital of the paper's random split sees "
        f"none alone (p ≥ α = {alpha:g}) more often than not: its median p is at least α",
        bool(pooled_p < CLAIM_POOLED_P and median >= alpha),
        f"pooled p = {pooled_p:.3g}; a hospital's median p {median:.3f}, p < α in {detect:.1%} of "
        f"{p.size} hospital fits", "one-hospital-random-split",
    )  # fmt: skip


def figure4_interval_check(upper: Mapping[str, float]) -> Check:
    """Figure 4(c): against ZDV, every treatment lowers the hazard, its pooled 95 % interval ending below
    zero (``upper``: each treatment's upper end). Undecided when no treatment was fitted."""
    return Check("every treatment's 95 % interval of the log hazard ratio against ZDV lies below 0",
                 every(u < 0 for u in upper.values()),
                 f"highest upper end {max(upper.values(), default=float('nan')):+.3f}", "below-zero",
                 against="reference")  # fmt: skip


def lambda_gap_checks(
    gaps: Mapping[str, float],
    tie_ranges: Mapping[str, tuple[float, float]],
    quicksort: Mapping[str, float] | None = None,
) -> list[Check]:
    """Λ(−log 2) − Λ(0) under both likelihoods, pooled and over the 5-way split (:data:`LAMBDA_GAP`).

    The paper's likelihood's values are compared with ``gaps`` (±0.001). An as-published value depends on
    the order of tied times (:func:`~dpnet.survival.cox.cox_partial_loglik`), which the notebook left to
    its machine's sort: the reference value passes when it lies within ``tie_ranges[key] = (lowest,
    highest)`` over tie orders (widened by its rounding, ±0.05); ``gaps[key]`` is the book's row-order
    value. ``quicksort``: the as-published values with the notebook's own sort on the machine at hand
    (NumPy's default quicksort, which pandas' ``sort_values`` uses), compared with the reference values
    to their printed digits (±0.005 and ±0.05): a comparison that depends on the machine.
    """
    out = []
    for key, want in LAMBDA_GAP.items():
        tol = LAMBDA_GAP_TOLERANCE[key.removesuffix("_5")]
        where = "summed over the 5-way split" if key.endswith("_5") else "pooled"
        name = "gap-" + key.replace("_5", "-split").replace("_", "-")
        if key.startswith("paper"):
            out.append(Check(f"Λ(−log 2) − Λ(0) = {want} with the paper's likelihood, {where}",
                             within(gaps[key] - want, (-tol, tol)), f"computed {gaps[key]:.4f}", name,
                             against="reference"))  # fmt: skip
            continue
        lo, hi = tie_ranges[key]
        claim = f"Λ(−log 2) − Λ(0) = {want} with the as-published likelihood, {where}, for some order of ties"
        detail = f"computed {lo:.2f} to {hi:.2f} over tie orders; {gaps[key]:.4f} with ties in row order"
        out.append(Check(claim, within(want, (lo - tol, hi + tol)), detail, name, against="reference"))
    if quicksort is not None:
        pooled, split = quicksort["as_published"], quicksort["as_published_5"]
        ok = within(pooled - LAMBDA_GAP["as_published"], (-0.005, 0.005)) and within(
            split - LAMBDA_GAP["as_published_5"], (-0.05, 0.05)
        )
        out.append(Check(
            f"with the notebook's own sort (NumPy's quicksort) on this machine, the as-published gaps are "
            f"the reference {LAMBDA_GAP['as_published']} pooled and {LAMBDA_GAP['as_published_5']} summed "
            "over the 5-way split, to their printed digits",
            ok, f"computed {pooled:.4f} pooled, {split:.4f} summed (the order of ties depends on the "
            "machine)",
            "gap-as-published-quicksort", against="reference",
        ))  # fmt: skip
    return out


#: The rates of the finite-T runs compared with the T → ∞ oracle (:func:`success_checks`): the probability
#: that GM selects −log 2 and the mean AM belief on it.
ORACLE_KEYS: Final = ("GM", "AM belief")


def success_checks(
    measured: Mapping[str, Mapping[str, float]], oracle: Mapping[str, Mapping[str, float]], n_reps: int
) -> list[Check]:
    """The finite-T Monte Carlo over ``n_reps`` runs (``measured``) against the T → ∞ oracle (``oracle``),
    per variant (``"paper"``, ``"as_published"``) and rate (:data:`ORACLE_KEYS`).

    A statistical test of "finite T behaves like T → ∞": a rate within 4 binomial standard errors of the
    oracle's (plus ½/n_reps for the discreteness of a rate near 0 or 1), the mean AM belief within 4 of
    its measured standard errors (key ``"AM belief se"``). Four standard errors keep the chance of a false
    alarm across the four checks below 3e−4. The price is power: with full mode's 1000 replications a
    disagreement of 0.05 is caught when the rate is within 0.1 of 0 or 1 (the allowance is 0.038 there)
    but not at a rate of 0.5 (allowance 0.064); quick mode's 200 replications catch only disagreements
    above about 0.14. (The oracle's own values are a regression of the book's, tested in
    ``tests/chapters/test_p003_fig14_1a_b.py``, not evidence.)
    """
    out = []
    for variant in ("paper", "as_published"):
        for key in ORACLE_KEYS:
            suffix = f"{variant.replace('_', '-')}-{key.lower().replace(' ', '-')}"
            got, m = oracle[variant][key], measured[variant][key]
            if key == "AM belief":
                bound = 4 * measured[variant]["AM belief se"]
            else:
                bound = 4 * float(np.sqrt(got * (1 - got) / n_reps)) + 0.5 / n_reps
            out.append(Check(f"finite-T runs ({variant}): {key} within 4 standard errors of the T → ∞ oracle",
                             within(m - got, (-bound, bound)), f"measured {m:.4f}, oracle {got:.4f}, allowed "
                             f"±{bound:.4f}", f"runs-{suffix}", against="reference"))  # fmt: skip
    return out


def section5_checks(
    central_p: float, median_p: float, claim_rate: float, median_runs: float, n_runs: int
) -> list[Check]:
    """§5's claims on the ACTG tests: centralised p < 1e−4, distributed p < 1e−5.

    The distributed p-value is the one that matches the rule ``S > ϱ_d``, ``2(1 − F_X(S + 1))``; its
    median over private runs in the limit of many iterations is ``median_p`` (the p-value of the
    noiseless statistic: the noise is symmetric and the p-value monotone), ``claim_rate`` the probability
    that it is below 1e−5, and ``median_runs`` the median over ``n_runs`` runs (Monte Carlo)."""
    return [
        Check("centralised composite test: p < 1e−4", bool(central_p < CLAIM_CENTRAL_P),
              f"computed p = {central_p:.3g}", "central-p"),
        Check("distributed composite test: p < 1e−5 (the p-value that matches the paper's rule, "
              "2(1 − F(S + 1)), its median over private runs)", bool(median_p < CLAIM_DISTRIBUTED_P),
              f"median {median_p:.3g} in the limit of many iterations ({median_runs:.3g} over {n_runs} "
              f"runs); below 1e−5 with probability {claim_rate:.1%}", "distributed-p"),
    ]  # fmt: skip


def prop46_checks(size: Mapping[str, float], alpha: float) -> list[Check]:
    """Prop 4.6 (and its composite extension, §10.2): the private test's Type I error is at most α, for
    the simple and the composite test and, when ``size`` has it, the composite test against §5's
    one-sided alternative (``size[kind]``, the paper's rule at Prop 4.6's K and T with the paper's noise;
    kinds ``"simple"``, ``"composite"``, ``"composite one-sided"``)."""
    names = {
        "simple": "simple-size",
        "composite": "composite-size",
        "composite one-sided": "composite-size-one-sided",
    }
    return [
        Check(f"Prop 4.6: the {kind} private test's Type I error is at most α", bool(size[kind] <= alpha),
              f"size {size[kind]:.3f} at α = {alpha}", name) for kind, name in names.items() if kind in size
    ]  # fmt: skip


#: §12's neighbours other than a change of treatment, as (kind, what the neighbour does).
NEIGHBOUR_CLAIMS: Final = (
    ("remove", "removing one patient"),
    ("add", "adding one patient"),
    ("event", "changing one patient's event indicator"),
    ("time", "changing one patient's time"),
    ("modify", "replacing one patient's record"),
)


def sensitivity_checks(
    largest: Mapping[str, Sequence[float]],
    delta: float,
    *,
    worst: float,
    worst_patients: int,
    eps_worst: float,
    eps: float,
) -> list[Check]:
    """§12's bound Δ = 2B_θB_x on what one patient does to a centre's log partial likelihood, over every
    data set, and Prop 4.6's ε-DP that rests on it.

    ``largest[kind]``: the largest change measured per centre and state for each kind of neighbour
    (:data:`NEIGHBOUR_CLAIMS` and ``"treatment"``); ``worst``: the change of one treatment on the
    worst-case data set of ``worst_patients`` patients
    (:func:`~dpnet.survival.cox.treatment_worst_case`), which costs ``eps_worst`` of privacy where the
    noise is calibrated to ``eps``. A change beyond Δ on these centres refutes §12's bound for its kind; a
    kind with none is undecided (these data are no proof of a bound over every data set), as is a kind
    with no change measured. ``treatment-within-delta-these-data`` is the per-instance statement, about
    these centres only.
    """
    out = []
    for kind, what in NEIGHBOUR_CLAIMS:
        values = list(largest[kind])
        beyond = [v for v in values if v > delta]
        passed = False if beyond else None
        detail = (
            f"largest change {max(values):.3f} on these centres, Δ = {delta:.3f}"
            if values
            else "no change measured"
        )
        if values and not beyond:
            detail += ": no counterexample here, which proves no bound"
        out.append(Check(f"§12: {what} moves a centre's log partial likelihood by at most Δ = 2B_θB_x",
                         passed, detail, f"{kind}-within-delta"))  # fmt: skip
    flips = list(largest["treatment"])
    here = every(v <= delta for v in flips)
    out += [
        Check(f"§12: changing one patient's treatment moves a centre's log partial likelihood by at most "
              f"Δ = 2B_θB_x, for every data set of {worst_patients} patients", bool(worst <= delta and here
              is not False), f"at most {max(flips, default=float('nan')):.3f} on these centres; "
              f"{worst:.3f} = {worst / delta:.1f}Δ on the worst-case data set, Δ = {delta:.3f}",
              "treatment-within-delta"),
        Check("on these centres (not over every data set), changing one patient's treatment moves a "
              "centre's log partial likelihood by at most Δ", here,
              f"largest change {max(flips, default=float('nan')):.3f}, Δ = {delta:.3f}",
              "treatment-within-delta-these-data", against="reference"),
        Check(f"Prop 4.6: the noise calibrated to Δ makes each centre's releases ε-DP (ε = {eps:g}), even "
              "for the adjacency §12 comes closest to, a change of one patient's treatment",
              bool(eps_worst <= eps * (1.0 + 1e-12)),
              f"the worst-case data set of {worst_patients} patients costs ε = {eps_worst:.3f}",
              "eps-dp"),
    ]  # fmt: skip
    return out


def _meets(rate: float, promise: float, n_reps: int) -> bool:
    """A Monte Carlo rate over ``n_reps`` runs meets a promised probability: it lies less than
    :data:`PROMISE_SE` binomial standard errors below it."""
    return bool(rate >= promise - PROMISE_SE * np.sqrt(promise * (1.0 - promise) / n_reps))


#: The promises of Theorem 4.1 and Cor 4.4 that Figure 14.1a–b's estimators are held to, as T → ∞: the
#: rate's key, the event, the theorem, and the promised probability as a function of α (α = 1 − β).
PROMISES: Final = (
    ("GM inside", "GM's set ⊆ Θ*", "Theorem 4.1", "1 − α"),
    ("AM covers", "Θ* ⊆ AM's set", "Theorem 4.1", "β"),
    ("two-threshold exact", "the two-threshold set = Θ* at Cor 4.4's τ", "Cor 4.4", "β − α"),
)


def promised(level: str, alpha: float) -> float:
    """The probability a promise of :data:`PROMISES` names (``"1 − α"``, ``"β"`` or ``"β − α"``) at
    ``α = 1 − β``."""
    return {"1 − α": 1.0 - alpha, "β": 1.0 - alpha, "β − α": 1.0 - 2.0 * alpha}[level]


def recovery_checks(
    limit: Mapping[str, Mapping[str, float]],
    runs: Mapping[str, Mapping[str, float]],
    *,
    alpha: float,
    n_reps: int,
    cor44: Mapping[str, bool],
) -> list[Check]:
    """Figure 14.1a–b's claim that the estimators recover Θ* = {−log 2}, read with the theorems: each
    estimator against its own promise (:data:`PROMISES`: Theorem 4.1 for GM and AM, Cor 4.4 for the
    two-threshold rule), with the paper's likelihood and noise and as published; the caption read
    literally (every estimator returns exactly {−log 2}, at the level β − α of Cor 4.4's exact recovery);
    and whether the published setting makes every algorithm's exact recovery more frequent.

    The probabilities are judged on ``limit``, the runs' ``T → ∞`` limit at their K and noise over
    ``n_reps`` runs (a rate passes within :data:`PROMISE_SE` standard errors), which the finite-T runs
    match (the ``runs-*`` checks of :func:`success_checks`); ``runs``, the finite-T rates, are reported
    beside them. ``cor44[variant]``: the variant's two-threshold rule used Cor 4.4's frequency threshold,
    so that Cor 4.4's promise applies to it (the published figure's 1/(1 + e^ϱ) is not Cor 4.4's).
    """
    exact, algorithms = 1.0 - 2.0 * alpha, ("GM", "AM", "two-threshold")
    out = []
    for variant, where, suffix in (
        ("paper", "the paper's likelihood and noise", ""),
        ("as_published", "the published likelihood and noise", "-as-published"),
    ):
        got, seen = limit[variant], runs[variant]
        keys = [p for p in PROMISES if cor44[variant] or p[0] != "two-threshold exact"]
        detail = "; ".join(
            f"P[{event}] = {got[k]:.4f} ({seen[k]:.3f} at finite T), promised {level} = "
            f"{promised(level, alpha):.2f} ({thm})"
            for k, event, thm, level in keys
        )
        if not cor44[variant]:
            detail += "; the two-threshold rule's frequency threshold is not Cor 4.4's: no promise"
        claim = f"with {where}, each estimator keeps its promise as T → ∞: " + ", ".join(
            f"{event} with probability at least {level}" for _, event, _, level in keys
        )
        passed = every(_meets(got[k], promised(level, alpha), n_reps) for k, _, _, level in keys)
        out.append(Check(claim, passed, detail, "recovers-theta-star" + suffix))
    for variant, where, suffix in (
        ("paper", "the paper's likelihood and noise", ""),
        ("as_published", "the published likelihood and noise", "-as-published"),
    ):
        got, seen = limit[variant], runs[variant]
        detail = ", ".join(f"{k} {got[k]:.3f} ({seen[k]:.3f} at finite T)" for k in algorithms)
        claim = (
            f"the caption read literally, with {where}: GM, AM and the two-threshold rule each return "
            f"exactly {{−log 2}}, with probability at least β − α = {exact:.2f}"
        )
        out.append(Check(claim, every(_meets(got[k], exact, n_reps) for k in algorithms), detail,
                         "caption-exact" + suffix))  # fmt: skip
    out.append(Check("every algorithm returns exactly {−log 2} more often as published than with the paper's "
                     "likelihood and noise", every(limit["as_published"][k] > limit["paper"][k]
                     for k in algorithms), ", ".join(f"{k} {limit['paper'][k]:.3f} → "
                     f"{limit['as_published'][k]:.3f}" for k in algorithms), "as-published-easier",
                     against="reference"))  # fmt: skip
    return out


def two_threshold_checks(limit: Mapping[str, float], *, alpha: float, pi: float, n_reps: int) -> list[Check]:
    """Theorem 4.3 on ACTG, in its own regime ``T → ∞`` (``limit``, over ``n_reps`` runs): the set of the
    frequency threshold τ¹ = (1+π₁)p₁ lies inside Θ* with probability at least 1 − α (``"inside"``), and
    the set of τ² = (1−π₂)p₂ covers Θ* with probability at least β = 1 − α (``"covers"``)."""
    return [
        Check(f"Theorem 4.3 (π = {pi:g}): {event} with probability at least {1 - alpha:.2f} as T → ∞",
              _meets(limit[key], 1.0 - alpha, n_reps), f"{limit[key]:.4f} over {n_reps} runs", name)
        for key, event, name in (("inside", "Θ̂¹ ⊆ Θ*", "thm4-3-type-i"),
                                 ("covers", "Θ* ⊆ Θ̂²", "thm4-3-type-ii"))
    ]  # fmt: skip


#: "Little better than a coin flip": the measured rate's 95 % interval lies within this distance of ½.
CHANCE_MARGIN: Final = 0.1


def tmb_chance_check(rate: float, n_reps: int) -> Check:
    """With the top-10 % indicator, GM returns the maximum-likelihood state log 0.15 little better than a
    coin flip: the measured ``rate`` over ``n_reps`` runs, with its 95 % interval (± 1.96 binomial
    standard errors), lies within :data:`CHANCE_MARGIN` of ½."""
    half = 1.96 * float(np.sqrt(rate * (1.0 - rate) / n_reps))
    return Check(
        f"top-10 % TMB: GM returns the MLE little better than a coin flip, its rate's 95 % interval within "
        f"{CHANCE_MARGIN} of ½",
        bool(abs(rate - 0.5) + half <= CHANCE_MARGIN),
        f"measured {rate:.3f} ± {half:.3f} over {n_reps} runs",
        "top10-near-chance",
        against="reference",
    )


def tmb_checks(
    gaps: Mapping[str, float],
    raw_coef: float,
    raw_high: float,
    rule_gaps: Mapping[str, float],
    *,
    published: bool,
) -> list[Check]:
    """Figure 14.3(c)'s claim (the pooled raw-TMB log HR is negative, its 95 % interval ending at
    ``raw_high`` below 0); the raw-TMB log HR of an independent fit; Λ(log 0.15) − Λ(0) under eq. (3) with
    raw TMB and, when the tie rule is the reference group's (``published``), with the top-10 % indicator;
    and whether log 0.15 is the maximum-likelihood state with the top-10 % indicator, under the run's tie
    rule and under every rule (``rule_gaps``: the top-10 % gap per rule)."""
    keys = ("raw", "top10") if published else ("raw",)
    coef_tol, gap_tol = FIG143_RAW_COEF_TOLERANCE, TMB_GAP_TOLERANCE
    return [
        Check("the pooled Cox log hazard ratio of raw TMB is negative, its 95 % interval below 0",
              bool(raw_coef < 0 and raw_high < 0), f"computed {raw_coef:.5f}, interval up to {raw_high:.5f}",
              "raw-negative"),
        Check("raw-TMB log HR −0.01776 (±5e−5), as an independent fit of the data set gives",
              within(raw_coef - FIG143_RAW_COEF, (-coef_tol, coef_tol)), f"computed {raw_coef:.5f}",
              "raw-coef", against="reference"),
        *[Check(f"Λ(log 0.15) − Λ(0) = {TMB_LAMBDA_GAP[key]:+} under eq. (3) with the {key} covariate, as an "
                "independent computation gives", within(gaps[key] - TMB_LAMBDA_GAP[key],
                (-gap_tol[key], gap_tol[key])), f"computed {gaps[key]:+.3f}", f"gap-{key}",
                against="reference") for key in keys],
        Check("with the top-10 % indicator, log 0.15 is the maximum-likelihood state: Λ(log 0.15) > Λ(0)",
              bool(gaps["top10"] > 0), f"Λ(log 0.15) − Λ(0) = {gaps['top10']:+.3f}", "top10-mle",
              against="reference"),
        Check("under every rule for the patients tied at the cut-off, log 0.15 is the maximum-likelihood "
              "state of the top-10 % indicator", every(g > 0 for g in rule_gaps.values()),
              ", ".join(f"{rule} {g:+.3f}" for rule, g in rule_gaps.items()), "top10-mle-every-rule",
              against="reference"),
    ]  # fmt: skip


def tmb_mle_check(gap_raw: float) -> Check:
    """Figs 14.4–14.5's claim that the private estimators' {log 0.15} is the ground truth: with the
    authors' raw-TMB covariate, is log 0.15 the maximum-likelihood state?"""
    return Check(
        "raw TMB: log 0.15 is the maximum-likelihood state, as the paper claims",
        bool(gap_raw > 0),
        f"Λ(log 0.15) − Λ(0) = {gap_raw:.1f}",
        "raw-mle",
    )
