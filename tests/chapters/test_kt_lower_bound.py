"""The book's table lower_bound (chapter distributed-mle): Theorem 13.1's bound on K·T, as printed and
with the proof's numerator."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import kt_lower_bound
from dpnet.params import Cost


def test_lower_bound_is_zero_as_printed_and_positive_with_the_proof_s_numerator() -> None:
    P = resolve("distributed-mle", {})
    lb = chapter.lower_bound(P, chapter.instance(P))
    assert np.all(lb.column("printed") == 0) and np.all(lb.column("proof") > 0) and lb.proof_growth > 1
    # with the same numerator in both, the remark is four times the theorem, also where the printed
    # numerator vanishes (β = 1 − α, the default)
    assert lb.remark_ratio == pytest.approx(4.0)
    off = chapter.lower_bound(resolve("distributed-mle", {"beta": 0.9}), chapter.instance(P))
    assert off.remark_ratio == pytest.approx(4.0)
    printed = off.column("remark")[0] / off.column("printed")[0]
    assert printed == pytest.approx(4.0)  # as printed too, where it is defined
    same = chapter.lower_bound(resolve("distributed-mle", {"alpha": 0.5, "beta": 0.5}), chapter.instance(P))
    assert math.isnan(same.remark_ratio)  # β = α: both bounds are 0 with the proof's numerator


def test_kt_lower_bound_records_its_table() -> None:
    P = resolve("distributed-mle", {})
    lb = chapter.lower_bound(P, chapter.instance(P))
    assert lb.eps_gap == kt_lower_bound.LOWER_BOUND_EPS_GAP and list(lb.tables()) == ["lower_bound"]
    assert len(lb.table) == len(P.eps_values) and kt_lower_bound.cost({}) == Cost()
