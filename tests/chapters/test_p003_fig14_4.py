"""Paper 003, Figure 14.4 (Chapter 3): the check that the published estimate is the maximum-likelihood
state, and the item's cost."""

from __future__ import annotations

import pytest

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import p003_fig14_1a_b, p003_fig14_4


def test_p003_fig14_4_tmb_mle_check_fails_with_raw_tmb_and_holds_with_the_top10_indicator() -> None:
    gaps = dict(reference.clinical.TMB_LAMBDA_GAP)
    assert (
        not reference.clinical.tmb_mle_check(gaps["raw"]).passed
        and reference.clinical.tmb_mle_check(gaps["top10"]).passed
    )


def test_p003_fig14_4_chance_check_passes_near_a_coin_flip_only() -> None:
    """The measured rate's 95 % interval must lie within 0.1 of ½: its standard error counts."""
    check = reference.clinical.tmb_chance_check
    assert check(0.523, 1000).passed and check(0.53, 200).passed and check(0.45, 1000).passed
    assert not check(0.75, 1000).passed and not check(0.3, 1000).passed
    assert not check(0.55, 200).passed  # within 0.1 of ½, but not its 95 % interval
    assert check(0.523, 1000).name == "top10-near-chance"


def test_p003_fig14_4_cost_peaks_below_the_actg_runs() -> None:
    """The cancer cohort's runs hold a study's arrays, never more than the ACTG runs with their oracle."""
    values = dict(resolve("hypothesis-testing", {}))
    need = p003_fig14_4.cost(values)
    assert need.peak == 16.0 * 8 * 5 * 14 * 200 and need.kept == 0
    assert need.seconds == pytest.approx(8 * 5 * 200 * 1.5e-6, rel=1e-12)
    for R in (20, 10**6):
        assert (
            p003_fig14_4.cost({**values, "replications": R}).peak
            < p003_fig14_1a_b.cost({**values, "replications": R}).peak
        )
