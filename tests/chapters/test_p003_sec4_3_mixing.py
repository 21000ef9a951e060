"""Paper 003, §4.3 (Chapter 5): the identification curves on other graphs and for rarer arrivals, against
the graphs' spectra and the gap."""

from __future__ import annotations

import numpy as np
import pytest
from small import kl_bernoulli, small

from dpnet import networks
from dpnet.chapters.online_learning import p003_sec4_3_mixing, p003_sec4_3_signals
from dpnet.results import RECORDED


def test_mixing_and_arrivals_against_the_spectra_and_the_gap() -> None:
    P = small("online-learning")
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
    assert all(hasattr(comp, name) for name in RECORDED)
    assert list(comp.tables()) == ["p003-sec4-3-mixing", "p003-sec4-3-arrivals"]


def test_p003_sec4_3_mixing_cost_counts_every_curve() -> None:
    values = dict(small("online-learning"))
    n, m, R, T, curves = 4, 3, 20, 60, 4
    cost = p003_sec4_3_mixing.cost(values)
    assert cost.seconds == pytest.approx(n * m * curves * R * T * 1e-7 * (1 + n / 25) + curves * T * 5e-5)
    assert cost.peak == cost.kept == 0
