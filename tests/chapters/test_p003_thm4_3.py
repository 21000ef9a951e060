"""Paper 003, Theorem 4.3 (chapter distributed-mle): its checks against the ε and gap sweeps, and the
book's checks of the corrected rule and of correcting p₂ alone, each shown to pass, to fail and (over an
empty set of cases) to be undecided; and why the corrected Θ̂¹'s Type I bound is not a check (it cannot
fail: a unit test here)."""

from __future__ import annotations

import dataclasses

import pytest
from scipy import stats
from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import p003_thm4_3
from dpnet.params import Cost


@pytest.fixture(scope="module")
def sweeps() -> dict:
    P = small("distributed-mle")
    inst = chapter.instance(P)
    return {"P": P, "eps": chapter.eps_sweep(P, inst), "gap": chapter.gap_sweep(P, inst)}


def test_theorem_4_3_checks_both_sets_and_the_book_s_corrections(sweeps: dict) -> None:
    v = chapter.theorem_4_3(sweeps["P"], sweeps["eps"], sweeps["gap"])
    names = [c.name for c in v.checks["p003-thm4-3"]]
    assert names == [
        "thres1-type1",
        "thres2-type2",
        "promise",
        "corrected-rates",
        "thres1-corrected-empty",
        "p2-alone",
    ]
    assert v.check("thres1-type1").passed is False and v.check("promise").passed is False
    assert v.check("corrected-rates").passed is True and v.check("corrected-rates").against == "reference"
    assert "Type II errors of Θ̂²" in v.check("corrected-rates").claim
    # at the small sweep's two gaps (0 and 2) Θ̂¹'s exact miss is within 0.001 of 1: nothing to compare
    assert v.check("thres1-corrected-empty").passed is None
    assert "no gap tested is the exact miss informative" in v.check("thres1-corrected-empty").detail
    assert v.check("p2-alone").passed is True and "2 won rounds" in v.check("p2-alone").detail
    assert p003_thm4_3.cost({}) == Cost()


def test_the_corrected_rule_fails_beyond_monte_carlo_error_and_is_undecided_when_not_run(
    sweeps: dict,
) -> None:
    gap = sweeps["gap"]
    high = {
        **gap.records,
        "thres2-corrected": [{**r, "type2": 0.2} for r in gap.records["thres2-corrected"]],
    }
    v = chapter.theorem_4_3(sweeps["P"], sweeps["eps"], dataclasses.replace(gap, records=high))
    assert v.check("corrected-rates").passed is False and "outside" in v.check("corrected-rates").detail
    skipped = {**gap.records, "thres1-corrected": [], "thres2-corrected": []}
    v = chapter.theorem_4_3(sweeps["P"], sweeps["eps"], dataclasses.replace(gap, records=skipped))
    assert v.check("corrected-rates").passed is None and "not simulated" in v.check("corrected-rates").detail
    assert v.check("thres1-corrected-empty").passed is None


@pytest.fixture(scope="module")
def informative() -> dict:
    """Gaps 5 and 6, where the corrected Θ̂¹ misses θ* with probability 0.591 and 0.062 exactly."""
    P = small("distributed-mle", gap_values=[0.0, 5.0, 6.0], replications=400)
    inst = chapter.instance(P)
    return {"P": P, "eps": chapter.eps_sweep(P, inst), "gap": chapter.gap_sweep(P, inst)}


def test_the_corrected_theta1_check_passes_at_informative_gaps_and_fails_when_it_keeps_theta_star(
    informative: dict,
) -> None:
    gap = informative["gap"]
    exact = gap.exact("thres1-corrected", "type2")
    assert exact[1] == pytest.approx(0.5913, abs=1e-3) and exact[2] == pytest.approx(0.0620, abs=1e-3)
    v = chapter.theorem_4_3(informative["P"], informative["eps"], gap)
    check = v.check("thres1-corrected-empty")
    assert check.passed is True and "gap 5" in check.detail and "gap 0" not in check.detail
    kept = {**gap.records, "thres1-corrected": [{**r, "type2": 0.2} for r in gap.records["thres1-corrected"]]}
    v = chapter.theorem_4_3(informative["P"], informative["eps"], dataclasses.replace(gap, records=kept))
    assert v.check("thres1-corrected-empty").passed is False


def test_the_corrected_theta2_bound_cannot_fail_at_the_defaults(sweeps: dict) -> None:
    """Why the corrected Θ̂²'s Type II bound is no check: its exact miss is largest at zero gap, where θ*
    wins a round with probability 1/4, and there it is P[Bin(96, 1/4) < 12] = 0.0008, sixty times below
    1 − β (the corrected proof guarantees it)."""
    gap = sweeps["gap"]
    exact = gap.exact("thres2-corrected", "type2")
    assert max(exact) == exact[0] == pytest.approx(stats.binom.cdf(11, 96, 0.25), abs=1e-6)
    assert max(exact) < (1 - sweeps["P"].beta) / 50


def test_the_corrected_theta1_type1_bound_cannot_fail_at_the_defaults(sweeps: dict) -> None:
    """Why the corrected Θ̂¹'s Type I half is no check: a false state wins a round with probability at
    most 1/2, and the rule asks for 72 of 96 rounds, so its error is at most 3 P[Bin(96, 1/2) ≥ 72]."""
    gap = sweeps["gap"]
    assert gap.thres1_wins_needed() == 72
    assert (
        gap.thres1_type1_bound() == pytest.approx(3 * stats.binom.sf(71, 96, 0.5))
        and gap.thres1_type1_bound() < 2e-6
    )
    exact = gap.exact("thres1-corrected", "type1")
    assert all(v <= gap.thres1_type1_bound() for v in exact)
    # the exact Type II error (Θ̂¹ misses θ*): P[Bin(96, p) < 72], 1 at zero gap
    assert gap.exact("thres1-corrected", "type2")[0] == pytest.approx(stats.binom.cdf(71, 96, 0.25), abs=1e-9)


def test_p2_alone_fails_when_the_corrected_p2_asks_for_fewer_wins() -> None:
    P = small("distributed-mle", n_states=3, pi=0.4)  # K = 12: τ² = 0.3 and 0.2 ask for 4 and 3 wins
    gap = chapter.gap_sweep(P, chapter.instance(P))
    v = chapter.theorem_4_3(P, chapter.eps_sweep(P, chapter.instance(P)), gap)
    assert gap.wins_needed(corrected=False) != gap.wins_needed(corrected=True)
    assert v.check("p2-alone").passed is False


def test_the_statements_are_undecided_without_cases(sweeps: dict) -> None:
    eps, gap = sweeps["eps"], sweeps["gap"]
    e = dataclasses.replace(eps, records={**eps.records, "thres1": [], "thres2": []})
    g = dataclasses.replace(gap, records={**gap.records, "thres1": [], "thres2": []})
    v = chapter.theorem_4_3(sweeps["P"], e, g)
    assert [v.check(n).passed for n in ("thres1-type1", "thres2-type2", "promise")] == [None, None, None]


def test_the_thresholds_miss_with_the_factor_but_the_paper_s_p2_and_their_exact_needs(sweeps: dict) -> None:
    """Restoring Hoeffding's factor without correcting p₂: 54 rounds, 9 won rounds, a miss of 0.0525 at
    zero gap (above 1 − β); exactly, Θ̂² needs 74 rounds with the paper's τ² and 34 with the corrected."""
    gap = sweeps["gap"]
    need, miss = gap.thres2_zero_gap_miss(54, corrected=False)
    assert need == 9 and miss == pytest.approx(stats.binom.cdf(8, 54, 0.25)) and miss > 0.05
    assert gap.thres2_zero_gap_miss(9, corrected=True) == gap.thres2_zero_gap_miss(9, corrected=False)
    assert (gap.thres2_rounds_needed(corrected=False), gap.thres2_rounds_needed(corrected=True)) == (74, 34)
