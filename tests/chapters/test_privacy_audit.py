"""Chapter 9 (:mod:`dpnet.chapters.privacy_audit`): its items on small draws, each check shown able to
fail, the exercise solutions, and the sweep's results identical for one and two workers."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from dpnet import chapters
from dpnet.audit import MechanismAudit
from dpnet.chapters import privacy_audit as chapter
from dpnet.chapters.privacy_audit._common import AuditTask, run_audit
from dpnet.reference import privacy_audit as ref
from dpnet.sweep import Stream, name_key, sweep

CHAPTER = "privacy-audit"


def params(**values: object) -> chapters.Parameters:  # type: ignore[name-defined]
    return chapters.resolve(CHAPTER, {"mode": "quick", "draws": 20_000, "vector_draws": 2000, **values})


@pytest.fixture(scope="module")
def sec12() -> chapter.ItemAudit:
    return chapter.sec12_audit(params())


def _row(**changes: object) -> MechanismAudit:
    base = MechanismAudit("r", "003", "§", "m", "a", 1.0, 1.0, 1.0, 1.0, "exhaustive", 1.0, 0.9, 0.95, 10)
    return dataclasses.replace(base, **changes)


def test_independent_numbers_lemma_fails_beliefs_hold(sec12: chapter.ItemAudit) -> None:
    assert sec12.extra["centre1_patients"] == 227
    assert sec12.extra["centre1_zero"] == pytest.approx(5.42, abs=0.01)
    assert sec12.extra["centre1_alt"] == pytest.approx(5.78, abs=0.01)
    assert sec12.extra["actg_ratio_add_remove"] == pytest.approx(0.43, abs=0.01)
    assert sec12.extra["tmb_ratio_add_remove"] == pytest.approx(1.81, abs=0.01)
    checks = {c.name: c.passed for c in sec12.checks["p003-sec12-audit"]}
    assert checks == {"sensitivity-bound": False, "independent-actg": True, "certified-violation": True,
                      "beliefs-dp": True, "independent-beliefs": True}  # fmt: skip
    kinds = {r.key: r.audits for r in sec12.rows}
    assert sorted(kinds.values()) == ["lemma"] * 3 + ["release"] * 3
    for r in sec12.rows:
        assert r.data.startswith("real")
        assert (r.holds, r.certifies_violation) == ((False, True) if r.audits == "lemma" else (True, False))


def test_removal_at_zero_is_log_n_by_hand() -> None:
    """Five patients, x = 0, times 1, 2, 3, 4, 5, events at times 1 and 3; θ = 0, so every risk sum is
    the number at risk. Removing the first patient drops its own event term θx − log S₁ = −log 5 (the
    change is +log 5) and leaves every other term alone: the only other event, at time 3, does not have
    the first patient in its risk set (t = 1 < 3). By hand the change is log 5 = 1.6094."""
    from dpnet.survival.cox import neighbour_changes

    ch = neighbour_changes(np.zeros(5), np.arange(1.0, 6.0), np.array([1.0, 0, 1, 0, 0]), np.array([0.0]))
    assert ch[0, 0] == pytest.approx(math.log(5))


def test_sec12_checks_can_fail() -> None:
    rows = [_row(measured_delta=0.5, implied_eps=0.5, certified=0.4)]
    beliefs = [_row(implied_eps=1.2, certified=1.1)]
    checks = {c.name: c.passed for c in ref.sec12_checks(rows, beliefs, (227, 5.0, 5.78), (0.5, 1.81))}
    assert checks == {"sensitivity-bound": True, "independent-actg": False, "certified-violation": False,
                      "beliefs-dp": False, "independent-beliefs": False}  # fmt: skip


def test_sec2_holds_and_its_checks_can_fail() -> None:
    item = chapter.sec2_audit(params())
    assert all(c.passed for c in item.checks["p003-sec2-audit"])
    # the identities the checks no longer carry: Δ measured = stated, both releases' exact ε = ε
    for r in item.rows:
        assert r.measured_delta == pytest.approx(r.stated_delta)
        assert r.implied_eps == pytest.approx(1.0)
    wrong = {c.name: c.passed for c in ref.sec2_checks([_row(certified=1.5)], 1.7, 0.7)}
    assert wrong == {"stated-eps": False, "llr-delta": False}


def test_p001_and_its_checks_can_fail() -> None:
    item = chapter.p001_audit(params())
    assert len(item.rows) == 16
    checks = {c.name: c.passed for c in item.checks["p001-audit"]}
    assert checks == {
        "global-dp": True,
        "smooth-dp": False,
        "smoothness-threshold": True,
        "not-smooth-share": True,
    }
    assert item.extra["threshold"] == pytest.approx(10.1045, abs=1e-3)
    for r in item.rows:  # the identity of the linear rows: a shift of 1 under scale 1/ε buys ε
        assert r.data.startswith("synthetic")
        if "global" in r.key:
            assert r.implied_eps == pytest.approx(r.stated_eps)
    wrong = {c.name: c.passed for c in ref.p001_checks([_row(certified=2.0)], [_row()], 10.6, 0.5)}
    assert wrong == {
        "global-dp": False,
        "smooth-dp": True,
        "smoothness-threshold": False,
        "not-smooth-share": False,
    }


def test_p002_and_p004_and_their_checks_can_fail() -> None:
    p002 = chapter.p002_audit(params())
    assert [c.passed for c in p002.checks["p002-audit"]] == [True]
    assert all(r.implied_eps == pytest.approx(1.0) for r in p002.rows)  # exact ε = ε: the construction
    assert [c.passed for c in ref.p002_checks([_row(certified=1.2)])] == [False]
    p004 = chapter.p004_audit(params(message_runs=10))
    assert [c.passed for c in p004.checks["p004-audit"]] == [True, True, True, True]
    state = p004.row("p004-message-state")
    assert state.audits == "release" and p004.row("p004-message-x").audits == "lemma"
    assert state.implied_eps == pytest.approx(0.875, abs=1e-3)
    assert p004.extra["state_ratio"] == pytest.approx(7.04, abs=0.005)
    wrong = ref.p004_checks([_row(implied_eps=1.2)], _row(measured_delta=9.0), _row(implied_eps=13.2), 7.0)
    assert [c.passed for c in wrong] == [False, False, False, False]


def test_gradient_gap_by_hand() -> None:
    # α = 0.5, β = 3, ū = 4: 2ū − 2α = 7 on X; at z = 3, 8 + 3·2 − 0.5·4 = 12
    assert chapter.p004_audit.__module__
    from dpnet.chapters.privacy_audit.p004_audit import gradient_gap

    assert gradient_gap([0.0, 1.0, 3.0], 0.5, 3.0, 4.0) == pytest.approx([7.0, 7.0, 12.0])


def test_state_gap_by_hand_and_by_brute_force() -> None:
    """At a small step s the largest change of the projected state is 7s, reached inside X (z = 0: the
    extremes z ± s(ū − α) = ±3.5s); it never exceeds the diameter 2 of X; and a brute-force search over
    z and the extreme quadratics of S (a ∈ {α, β}, θ at either end of its range) never beats it."""
    from dpnet.chapters.privacy_audit.p004_audit import state_gap

    alpha, beta, u = 0.5, 3.0, 4.0
    assert state_gap([0.01], alpha, beta, u) == pytest.approx([0.07])
    assert np.all(state_gap([0.1, 0.2, 0.3], alpha, beta, u) <= 2.0)
    s, best = 0.1, 0.0
    for z in np.linspace(-20, 20, 4001):
        values = [np.clip(z - s * a * (z - t), -1, 1) for a in (alpha, beta) for t in (1 - u / a, u / a - 1)]
        best = max(best, max(values) - min(values))
    assert best <= state_gap([s], alpha, beta, u)[0] + 1e-12


def test_exercise_eps_doubles_implied_keeps_factor(sec12: chapter.ItemAudit) -> None:
    doubled = chapter.sec12_audit(params(eps=2.0))
    for r1, r2 in zip(sec12.rows, doubled.rows, strict=True):
        assert r2.implied_eps == pytest.approx(2 * r1.implied_eps)
        assert r2.implied_eps / r2.stated_eps == pytest.approx(r1.implied_eps / r1.stated_eps)
        assert r2.certified <= r2.implied_eps
    r1, r2 = (d.row("p003-sec12-actg") for d in (sec12, doubled))
    assert r1.certified < r2.certified
    assert doubled.row("p003-sec12-actg-beliefs").holds


def test_summary_counts_lemmas_and_releases_apart_over_the_family() -> None:
    rows = (_row(key="a", implied_eps=2.0, certified=1.5, audits="lemma"), _row(key="b"),
            _row(key="c", implied_eps=3.0, certified=0.5))  # fmt: skip
    s = chapter.Summary(rows, {})
    assert s.metrics() == {"rows": 3, "release_rows": 2, "release_failing": 1, "release_certified": 0,
                           "lemma_rows": 1, "lemma_failing": 1, "lemma_certified": 1}  # fmt: skip
    from dpnet.chapters.privacy_audit._common import row_confidence

    assert row_confidence(params()) == pytest.approx(1 - 0.05 / chapter.FAMILY_ROWS)
    assert 2 + 6 + 16 + 3 + 3 == chapter.FAMILY_ROWS  # the rows of sec2, sec12, p001, p002, p004


def test_exercise_llr_and_cap() -> None:
    from dpnet.chapters.privacy_audit.p003_sec2_audit import llr

    values = llr(np.array([0, 1]), 0.8)
    assert values[1] - values[0] == pytest.approx(2 * math.log(4))
    assert 2 * math.log(4) == pytest.approx(2.77, abs=0.005)
    # the cap of ex-audit-cap: n = 10⁶, m = 32, α = 0.05 → log(n / log(4m/α)) ≈ 11.8
    from dpnet.mechanisms import clopper_pearson

    level = 1 - 0.05 / (4 * 32)
    lower, _ = clopper_pearson(10**6, 10**6, level)
    _, upper = clopper_pearson(0, 10**6, level)
    assert math.log(lower / upper) == pytest.approx(11.8, abs=0.05)
    assert math.log(1e6 / math.log(2560)) == pytest.approx(11.8, abs=0.05)


def test_sweep_identical_for_one_and_two_workers() -> None:
    tasks = [AuditTask(f"t{k}", "shift", ((1.0,), (1.0 + k,)), 2000, 0.95) for k in range(3)]
    tasks.append(AuditTask("d", "difference", (1.0, 2.0), 2000, 0.95))
    stream = Stream(7, (1,), "test")
    one = sweep(run_audit, tasks, stream, key=lambda t: name_key(t.key), n_jobs=1)
    two = sweep(run_audit, tasks, stream, key=lambda t: name_key(t.key), n_jobs=2)
    assert [r.epsilon_lower for r in one.values()] == [r.epsilon_lower for r in two.values()]
