"""The book's figure mle-errors-vs-gap and table gap_verdicts (chapter distributed-mle): the sweep over
the gap in noise scales, its verdicts, its figure and its cost."""

from __future__ import annotations

import dataclasses
import math

import matplotlib.pyplot as plt
from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import mle_errors_vs_gap


def test_met_from_is_nan_when_the_largest_gap_fails_and_the_table_says_so() -> None:
    P = small("distributed-mle")
    gap = chapter.gap_sweep(P, chapter.instance(P))
    failing = {**gap.records, "thres1": [{**r, "type1_lo": 1.0} for r in gap.records["thres1"]]}
    broken = dataclasses.replace(gap, records=failing)
    assert math.isnan(broken.met_from("thres1", "type1", P.alpha)) and math.isnan(broken.p_win_at(math.nan))
    assert broken.verdicts.set_index("rule").loc["two-threshold Θ̂¹ (Thm 4.3)", "within target from gap"] == (
        "none tested"
    )


def test_mle_errors_vs_gap_records_its_verdicts_and_draws() -> None:
    P = small("distributed-mle")
    gap = chapter.gap_sweep(P, chapter.instance(P))
    assert list(gap.tables()) == ["gap_verdicts"] and len(gap.verdicts) == 7
    assert list(gap.metrics()) == ["win_probability_vs_gap"] and len(gap.p_win) == 2
    assert set(gap.headline) >= {"gm_type1_gap_half", "am_type2_gap_zero", "cor44_exact_recovery_from_gap"}
    assert gap.wins_needed(corrected=True) <= gap.wins_needed(corrected=False)
    plt.close(gap.figure())
    cost = mle_errors_vs_gap.cost(dict(P))
    assert cost.seconds > 0 and cost.peak > 0 and cost.kept == 0
