"""Paper 003, Figure 14.2 (Chapter 4): the runtime study's checks against the paper, and its cost."""

from __future__ import annotations

import pytest

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.treatment_identification import p003_fig14_2


def test_runtime_checks_pass_on_the_claims_and_fail_otherwise() -> None:
    assert [c.passed for c in reference.identification.runtime_checks(0.07, {(6, 4096): 12.0})] == [
        True,
        True,
    ]
    assert [c.passed for c in reference.identification.runtime_checks(12.0, {(6, 4096): 8.5})] == [
        False,
        False,
    ]
    undefined = reference.identification.runtime_checks(None, {})
    assert [(c.name, c.passed) for c in undefined] == [("under-10s", None), ("faster-than-he", None)]


def test_cost_times_every_point_per_repeat() -> None:
    values = dict(resolve("treatment-identification", {}))
    point = p003_fig14_2.cost(
        {**values, "runtime_n_values": [6], "runtime_rows": [4096], "runtime_repeats": 2}
    )
    assert point.seconds == pytest.approx(2 * (0.028 * 6 + 5e-6 * 4096))
    assert point.peak == 4.5e5 * 6 + 270.0 * 4096
