"""Paper 003, Figure 14.1a–b (Chapter 3): the likelihood gaps' and the success rates' checks, the ACTG
runs' noise scale, and the item's cost."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpnet import networks, reference
from dpnet import survival as sv
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import p003_fig14_1a_b


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


def test_p003_fig14_1a_b_lambda_gap_checks_pass_on_the_reference_and_fail_otherwise() -> None:
    gaps = dict(reference.clinical.LAMBDA_GAP)
    ranges = {"as_published": (271.27, 274.04), "as_published_5": (274.35, 276.97)}
    assert all(passed(reference.clinical.lambda_gap_checks(gaps, ranges)))
    assert not all(passed(reference.clinical.lambda_gap_checks({**gaps, "paper": 9.64}, ranges)))
    narrow = {**ranges, "as_published": (271.0, 273.0)}  # the published 273.17 outside every tie order
    assert not all(passed(reference.clinical.lambda_gap_checks(gaps, narrow)))


def test_p003_fig14_1a_b_success_checks_use_the_oracles_binomial_error() -> None:
    oracle = {v: dict(w) for v, w in reference.clinical.ORACLE_SUCCESS.items()}
    measured = {v: {**w, "AM belief se": 0.01} for v, w in reference.clinical.ORACLE_SUCCESS.items()}
    assert all(passed(reference.clinical.success_checks(measured, oracle, 200)))
    # a rate 0.15 away from the oracle's 0.61 is 4.3 binomial standard errors off at 200 runs
    off = {**measured, "paper": {**measured["paper"], "GM": 0.46}}
    checks = reference.clinical.success_checks(off, oracle, 200)
    assert [c.passed for c in checks if c.name == "runs-paper-gm"] == [False]
    # an exact rate of 1 at an oracle of 1 passes (no zero-width interval)
    assert all(c.passed for c in checks if "as-published" in c.name)


# Identities that used to be recorded as checks: they hold by construction, so they are tested here


def test_p003_fig14_1a_b_the_actg_runs_noise_scale_is_delta_k_states_over_eps(actg: pd.DataFrame) -> None:
    """The published runs' noise scales 22.18 (paper) and 44.36 (authors' code) are ΔK|Θ|/ε and twice that,
    with K = 8: they follow from K, which the report checks (``code-k-t``)."""
    ddi = sv.arm_cohort(actg, "ddI")
    centres = sv.cohort_centres(ddi.index.to_numpy(), 5)
    A = networks.metropolis_hastings(networks.make_graph("complete", 5)).toarray()
    a_star, delta = networks.spectral_constants(A).a_star, sv.cox_sensitivity(math.log(2.0))
    states = np.array([0.0, -math.log(2.0)])
    for variant, convention, want in (("paper", "paper", 22.18), ("as_published", "authors_code", 44.36)):
        table = sv.centre_loglik(ddi.x, ddi.time, ddi.event, centres, states, variant=variant)
        sched = sv.code_schedule(table, a_star=a_star, delta=delta, eps=1.0, alpha=0.05, rho=1.5,
                                 convention=convention)  # fmt: skip
        factor = 2 if convention == "authors_code" else 1
        assert sched.K == 8
        assert sched.noise_scale == pytest.approx(factor * delta * sched.K * 2 / 1.0, rel=1e-12)
        assert sched.noise_scale == pytest.approx(want, abs=reference.complexity.ACTG_NOISE_TOLERANCE)


def test_p003_fig14_1a_b_cost_is_the_runs_and_the_oracle() -> None:
    """At the quick defaults (K = 8, n = 5, R = 200): the study's and the oracle's arrays at their peak,
    the runs of both likelihoods and the oracle's."""
    need = p003_fig14_1a_b.cost(dict(resolve("hypothesis-testing", {})))
    assert need.peak == 16.0 * 8 * 5 * (14 * 200 + 4 * p003_fig14_1a_b.ORACLE_REPS) and need.kept == 0
    assert need.seconds == pytest.approx(8 * 5 * (200 * 1.34e-6 + 50_000 * 1.16e-6), rel=1e-12)
