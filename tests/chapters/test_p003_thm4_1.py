"""Paper 003, Theorem 4.1 (chapter distributed-mle): its checks against the sweeps, each shown to pass,
to fail and (over an empty set of cases) to be undecided; and the bound check they are built from
(:func:`dpnet.reference.complexity.bound_check`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import p003_thm4_1
from dpnet.params import Cost
from dpnet.reference import complexity
from dpnet.results import RECORDED


@pytest.fixture(scope="module")
def sweeps() -> dict:
    P = small("distributed-mle")
    inst = chapter.instance(P)
    eps, gap = chapter.eps_sweep(P, inst), chapter.gap_sweep(P, inst)
    return {"P": P, "eps": eps, "gap": gap, "ks": chapter.k_sweep(P, inst, eps.freq43),
            "floor": chapter.win_floor(P, inst, gap.rounds),
            "every": chapter.every_round(P, inst)}  # fmt: skip


def verdict(sweeps: dict, **changed: object) -> chapter.Verdict:
    s = {**sweeps, **changed}
    return chapter.theorem_4_1(s["P"], s["eps"], s["gap"], s["ks"], s["floor"], s["every"])


def test_bound_check_passes_fails_and_is_undecided_on_no_case() -> None:
    cases = [("a", 0.04, 0.01, 0.09), ("b", 0.2, 0.12, 0.3)]
    assert complexity.bound_check("c", cases[:1], 0.05, "n").passed is True
    failed = complexity.bound_check("c", cases, 0.05, "n")
    assert (
        failed.passed is False
        and failed.detail.startswith("1 of 2 cases above 0.05")
        and "b: 0.2" in failed.detail
    )
    assert complexity.bound_check("c", [("a", 0.8, 0.7, 0.9)], 0.9, "n", at_least=True).passed is True
    assert complexity.bound_check("c", [("a", 0.5, 0.4, 0.6)], 0.9, "n", at_least=True).passed is False
    empty = complexity.bound_check("c", [], 0.05, "n", empty="nothing ran")
    assert empty.passed is None and empty.detail == "undecided: nothing ran"


def test_all_hold_fails_on_a_failure_and_is_undecided_on_an_undecided_statement() -> None:
    ok, bad = (
        complexity.bound_check("c", [("a", 0, 0, 0.01)], 0.05, "x"),
        complexity.bound_check("c", [("a", 0.2, 0.1, 0.3)], 0.05, "y"),
    )
    undecided = complexity.bound_check("c", [], 0.05, "z")
    assert complexity.all_hold("h", [ok, ok], "p").passed is True
    assert complexity.all_hold("h", [ok, bad, undecided], "p").passed is False
    assert complexity.all_hold("h", [ok, undecided], "p").passed is None
    assert complexity.all_hold("h", [], "p").passed is None


def test_theorem_4_1_records_its_statements_headline_and_the_book_s_checks(sweeps: dict) -> None:
    v = verdict(sweeps)
    assert all(hasattr(v, name) for name in RECORDED) and v.metrics() == {} and v.tables() == {}
    names = [c.name for c in v.checks["p003-thm4-1"]]
    assert names == ["am-type2", "gm-type1-eq13", "gm-type1-every-round", "gm-type1", "promise",
                     "win-probability", "gm-zero-gap", "gm-fixed-budget", "gm-fixed-scale", "am-type1",
                     "oracle-limit", "exact-rates"]  # fmt: skip
    against = {c.name: c.against for c in v.checks["p003-thm4-1"]}
    paper = {"am-type2", "gm-type1-eq13", "gm-type1-every-round", "gm-type1", "promise"}
    assert {n for n, a in against.items() if a == "paper"} == paper
    assert v.check("gm-type1").passed is False and v.check("promise").passed is False
    assert (
        v.check("gm-type1-every-round").passed is False
        and "|Θ| = 2" in v.check("gm-type1-every-round").detail
    )
    assert v.check("exact-rates").passed is True
    assert v.check("win-probability").passed is True and v.check("gm-zero-gap").passed is True
    assert p003_thm4_1.cost({}) == Cost()


def test_the_statements_fail_beyond_monte_carlo_error_and_are_undecided_without_cases(sweeps: dict) -> None:
    eps, gap = sweeps["eps"], sweeps["gap"]
    clean = {**eps.records, "am": [{**r, "type2_lo": 0.0} for r in eps.records["am"]]}
    clean_gap = {**gap.records, "AM, paper": [{**r, "type2_lo": 0.0} for r in gap.records["AM, paper"]]}
    v = verdict(
        sweeps, eps=dataclasses.replace(eps, records=clean), gap=dataclasses.replace(gap, records=clean_gap)
    )
    assert v.check("am-type2").passed is True
    high = {**eps.records, "am": [{**r, "type2_lo": 0.5} for r in eps.records["am"]]}
    assert verdict(sweeps, eps=dataclasses.replace(eps, records=high)).check("am-type2").passed is False
    empty_eps = dataclasses.replace(eps, records={**eps.records, "am": [], "gm": []})
    empty_gap = dataclasses.replace(gap, records={**gap.records, "AM, paper": [], "GM, paper": []})
    v = verdict(sweeps, eps=empty_eps, gap=empty_gap)
    assert v.check("am-type2").passed is None and v.check("gm-type1-eq13").passed is None
    assert v.check("gm-type1").passed is None and "depends on the reading" in v.check("gm-type1").detail
    assert v.check("promise").passed is None and v.check("am-type1").passed is None
    none = {
        **gap.records,
        **{name: [] for name in ("AM, paper", "AM, corrected", "GM, paper", "GM, corrected")},
    }
    check = verdict(sweeps, gap=dataclasses.replace(gap, records=none)).check("exact-rates")
    assert check.passed is None and "no rate" in check.detail


def test_gm_s_statement_fails_under_both_readings_holds_under_both_and_is_undecided_between(
    sweeps: dict,
) -> None:
    """``gm-type1``: the verdict must not depend on which estimator 'GM as T → ∞' means."""
    every, eps, gap = sweeps["every"], sweeps["eps"], sweeps["gap"]
    calm = dataclasses.replace(every, records=[{**r, "type1_lo": 0.0} for r in every.records])
    v = verdict(sweeps, every=calm)
    assert v.check("gm-type1-every-round").passed is True and v.check("gm-type1").passed is None
    quiet_eps = dataclasses.replace(
        eps, records={**eps.records, "gm": [{**r, "type1_lo": 0.0} for r in eps.records["gm"]]}
    )
    quiet_gap = dataclasses.replace(
        gap, records={**gap.records, "GM, paper": [{**r, "type1_lo": 0.0} for r in gap.records["GM, paper"]]}
    )
    both = verdict(sweeps, every=calm, eps=quiet_eps, gap=quiet_gap)
    assert both.check("gm-type1").passed is True
    none = dataclasses.replace(every, records=[])
    v = verdict(sweeps, every=none)
    assert (
        v.check("gm-type1-every-round").passed is None
        and "not simulated" in v.check("gm-type1-every-round").detail
    )


def test_the_exact_rates_check_fails_when_a_simulated_rate_is_far_from_its_exact_value(sweeps: dict) -> None:
    gap = sweeps["gap"]
    off = {**gap.records, "GM, paper": [{**r, "type1": 0.0} for r in gap.records["GM, paper"]]}
    check = verdict(sweeps, gap=dataclasses.replace(gap, records=off)).check("exact-rates")
    assert check.passed is False and "GM, paper, gap 0" in check.detail


def test_the_win_probability_check_fails_at_the_proofs_value_and_is_undecided_without_a_count(
    sweeps: dict,
) -> None:
    floor = sweeps["floor"]
    proofs = dataclasses.replace(floor, win=1 / (np.array(floor.states) - 1.0))
    assert verdict(sweeps, floor=proofs).check("win-probability").passed is False
    none = dataclasses.replace(floor, states=(), win=np.array([]))
    assert verdict(sweeps, floor=none).check("win-probability").passed is None


def test_gm_at_zero_gap_is_undecided_without_a_zero_gap_and_fails_far_from_the_lottery(sweeps: dict) -> None:
    P = small("distributed-mle", gap_values=[1.0, 3.0])
    gap = chapter.gap_sweep(P, chapter.instance(P))
    assert verdict(sweeps, gap=gap).check("gm-zero-gap").passed is None
    g = sweeps["gap"]
    far = {**g.records, "GM, paper": [{**r, "type1": 0.0} for r in g.records["GM, paper"]]}
    assert verdict(sweeps, gap=dataclasses.replace(g, records=far)).check("gm-zero-gap").passed is False


def test_the_rounds_checks_fail_when_reversed_and_are_undecided_without_two_cases(sweeps: dict) -> None:
    ks, gap = sweeps["ks"], sweeps["gap"]
    one = small("distributed-mle", K_values=[4])
    lone = chapter.k_sweep(one, chapter.instance(one), sweeps["eps"].freq43)
    assert verdict(sweeps, ks=lone).check("gm-fixed-budget").passed is None
    flat = {**ks.records, "gm": [{**r, "type1_lo": 0.0, "type1_hi": 0.01} for r in ks.records["gm"]]}
    assert verdict(sweeps, ks=dataclasses.replace(ks, records=flat)).check("gm-fixed-budget").passed is False
    worse = {**gap.records, "GM, corrected": [{**r, "type1_hi": 0.9} for r in gap.records["GM, corrected"]]}
    assert verdict(sweeps, gap=dataclasses.replace(gap, records=worse)).check("gm-fixed-scale").passed is None
    both_bad = {**worse, "GM, paper": [{**r, "type1_hi": 0.9} for r in gap.records["GM, paper"]]}
    paper_first = {**both_bad, "GM, paper": [{**r, "type1_hi": 0.0} for r in gap.records["GM, paper"]]}
    assert (
        verdict(sweeps, gap=dataclasses.replace(gap, records=paper_first)).check("gm-fixed-scale").passed
        is False
    )
    # K = 9 within α (whole interval) from gap 3, K = 5 from no gap tested: undecided needs both to fail
    assert verdict(sweeps).check("gm-fixed-scale").passed in (True, None)
    # a tie (both within α from the same gap) does not order the two: the check fails
    tie = {
        **gap.records,
        **{n: [{**r, "type1_hi": 0.0} for r in gap.records[n]] for n in ("GM, paper", "GM, corrected")},
    }
    assert verdict(sweeps, gap=dataclasses.replace(gap, records=tie)).check("gm-fixed-scale").passed is False


def test_the_oracle_limit_check_holds_fails_on_a_difference_and_is_undecided_without_budgets(
    sweeps: dict,
) -> None:
    eps = sweeps["eps"]
    assert verdict(sweeps).check("oracle-limit").passed is True
    moved = {**eps.records, "gm-T": [{**r, "type1": r["type1"] + 0.01} for r in eps.records["gm-T"]]}
    check = verdict(sweeps, eps=dataclasses.replace(eps, records=moved)).check("oracle-limit")
    assert check.passed is False and "0.0100" in check.detail
    empty = {**eps.records, "am": [], "am-T": []}
    assert verdict(sweeps, eps=dataclasses.replace(eps, records=empty)).check("oracle-limit").passed is None


def test_am_type1_check_fails_when_am_admits_no_false_state(sweeps: dict) -> None:
    eps = sweeps["eps"]
    quiet = {**eps.records, "am": [{**r, "type1_lo": 0.0} for r in eps.records["am"]]}
    assert verdict(sweeps, eps=dataclasses.replace(eps, records=quiet)).check("am-type1").passed is False
