"""The book's table constants_paper_corrected (chapter distributed-mle): the paper's and the corrected
constants of Theorems 4.1 and 4.3, against their closed forms."""

from __future__ import annotations

import math

import pytest

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_mle import mle_constants
from dpnet.params import Cost


def test_constants_at_the_chapter_s_defaults() -> None:
    P = resolve("distributed-mle", {})
    const = chapter.constants(P, chapter.instance(P))
    assert list(const.tables()) == ["constants_paper_corrected"] and const.metrics() == {}
    assert const.value("p₂, an MLE state's win probability per round") == pytest.approx(1 / 3)
    assert const.value("p₂, an MLE state's win probability per round", "corrected") == pytest.approx(1 / 4)
    assert const.value("p₁, a bound on another state's") == 0.0
    assert const.value("p₁, a bound on another state's", "corrected") == 0.5
    assert const.value("K of Alg 2") == 9 and const.value("K of Alg 2", "corrected") == 96
    # Hoeffding: K² = log(|Θ*|/(1 − β))/(2π²p²)
    assert const.value("K², rounds of Θ̂²", "corrected") == pytest.approx(math.log(20) / (2 * 0.25 / 16))
    assert const.k2_paper_p2 == pytest.approx(math.log(20) / (2 * 0.25 / 9))
    assert (
        "floored at 1/K: 0.111"
        in const.table.set_index("constant").loc["τ¹, threshold of Θ̂¹", "the chapter runs"]
    )
    assert mle_constants.cost({}) == Cost()
