"""Paper 003, §4.3 (Chapter 5): the synthetic streams' signal laws, sensitivity and network, against their
closed forms."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special
from small import small

from dpnet.chapters.online_learning import p003_sec4_3_signals
from dpnet.params import Cost


def test_signals_closed_forms() -> None:
    sig = p003_sec4_3_signals.signals(small("online-learning", signal_shift=0.3))
    assert sig.delta == pytest.approx(special.logit(0.8), rel=1e-14)
    # the LLR of a signal takes two values logit(0.8) − logit(0.5) apart, with probabilities 1/2
    assert sig.spread == pytest.approx(special.logit(0.8) / 2, rel=1e-14)
    assert sig.table["tells apart"].tolist() == ["θ1", "θ2", "θ1", "θ2"]
    assert sig.scale(None) == 0.0 and sig.scale(2.0) == pytest.approx(sig.delta * 3 / 2.0)
    b = np.sort(np.abs(np.linalg.eigvalsh(sig.weights)))[-2]  # second largest modulus
    assert sig.b_star == pytest.approx(b, abs=1e-12)


def test_p003_sec4_3_signals_cost_is_negligible() -> None:
    assert p003_sec4_3_signals.cost(dict(small("online-learning"))) == Cost()
