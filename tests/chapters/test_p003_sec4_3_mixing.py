"""Paper 003, §4.3 (Chapter 5): the identification curves on other graphs and for rarer arrivals, against
the graphs' spectra and the gap, and the checks of Theorem 4.7's factors for mixing and arrivals."""

from __future__ import annotations

import math

import numpy as np
import pytest
from small import kl_bernoulli, small

from dpnet import networks, reference
from dpnet.chapters.online_learning import p003_sec4_3_mixing, p003_sec4_3_signals
from dpnet.inference.signals import BLOCK
from dpnet.results import RECORDED


def test_mixing_and_arrivals_against_the_spectra_and_the_gap() -> None:
    P = small("online-learning", horizon=400)
    sig = p003_sec4_3_signals.signals(P)
    comp = p003_sec4_3_mixing.mixing_and_arrivals(P, sig)
    for _, row in comp.mixing.iterrows():
        A = networks.metropolis_hastings(networks.make_graph(row["graph"], 4)).toarray()
        assert row["b*"] == pytest.approx(np.sort(np.abs(np.linalg.eigvalsh(A)))[-2], abs=1e-12)
    l1 = 2 * kl_bernoulli(0.5, 0.8)
    np.testing.assert_allclose(comp.arrivals["l"], [l1, l1 / 2], rtol=1e-12)  # l scales with ξ
    h = comp.mixing["T of Thm 4.7"]
    assert comp.horizon_ratio == h.max() / h.min()
    assert set(comp.mixing_curves["graph"].str.split().str[0]) == {"complete", "path"}
    # the fine grid: consecutive recorded periods a few per cent apart beyond the first hundred
    t = np.sort(comp.mixing_curves["T"].unique())
    assert np.all(t[1:][t[1:] > 100] / t[:-1][t[1:] > 100] < 1.03)
    # the crossing within its Monte Carlo error brackets the crossing itself
    for frame in (comp.mixing, comp.arrivals):
        for _, row in frame.dropna(subset=[p003_sec4_3_mixing.LATEST]).iterrows():
            assert (
                row[p003_sec4_3_mixing.EARLIEST]
                <= row[p003_sec4_3_mixing.REACH]
                <= row[p003_sec4_3_mixing.LATEST]
            )
    assert [c.name for c in comp.checks["p003-thm4-7"]] == ["mixing-not-multiplied", "arrivals-ample"]
    assert all(hasattr(comp, name) for name in RECORDED)
    assert list(comp.tables()) == ["p003-sec4-3-mixing", "p003-sec4-3-arrivals"]


def test_mixing_check_can_fail_and_is_undecided_without_a_plausible_crossing() -> None:
    check = reference.online.mixing_checks
    assert check(horizon_ratio=18.0, reach={"complete": (290, 370), "path": (300, 470)})[0].passed is True
    assert check(horizon_ratio=18.0, reach={"complete": (290, 370), "path": (3000, 4700)})[0].passed is False
    undecided = check(horizon_ratio=18.0, reach={"complete": (290, 370), "path": (300, None)})[0]
    assert undecided.passed is None and "does not plausibly reach" in undecided.detail
    assert check(horizon_ratio=1.0, reach={"complete": (290, 370)})[0].passed is None


def test_arrival_check_can_fail_and_is_undecided_on_no_case() -> None:
    check = reference.online.arrival_checks
    assert check([(1.0, 1565, 395, 12000), (0.2, 45574, 7494, 12000)])[0].passed is True
    assert check([(0.2, 5000, 7494, 12000)])[0].passed is False  # the horizon falls short
    assert check([(0.2, 5000, None, 12000)])[0].passed is False  # inside the run, not reached by then
    empty = check([(0.2, 45574, None, 2000)])[0]  # beyond the run, not reached: no case
    assert empty.passed is None and empty.detail.startswith("undefined")


def test_comparison_ratios_are_undefined_when_a_graph_does_not_reach() -> None:
    P = small("online-learning", horizon=10)
    comp = p003_sec4_3_mixing.mixing_and_arrivals(P, p003_sec4_3_signals.signals(P))
    assert all(math.isnan(x) for x in (*comp.reach_range, comp.reach_bound, *comp.arrival_margin))
    assert all(c.passed is None for c in comp.checks["p003-thm4-7"])


def test_p003_sec4_3_mixing_cost_counts_every_curve() -> None:
    values = dict(small("online-learning"))
    n, m, R, T, curves = 4, 3, 20, 60, 4
    cost = p003_sec4_3_mixing.cost(values)
    assert cost.seconds == pytest.approx(n * m * curves * R * T * 1e-7 * (1 + n / 25) + curves * T * 5e-5)
    assert cost.peak == 8 * n * m * R * (T + 4 * BLOCK) and cost.kept == 0
