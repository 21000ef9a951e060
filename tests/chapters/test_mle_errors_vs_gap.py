"""The book's figure mle-errors-vs-gap and table gap_verdicts (chapter distributed-mle): the sweep over
the gap in noise scales, its verdicts, its figure and its cost."""

from __future__ import annotations

import dataclasses
import math

import matplotlib.pyplot as plt
import pytest
from scipy import stats
from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import mle_errors_vs_gap
from dpnet.chapters.distributed_mle._common import CORRECTED_K_MAX


def test_met_from_needs_every_whole_interval_within_and_the_table_says_how_many_fail() -> None:
    P = small("distributed-mle")
    gap = chapter.gap_sweep(P, chapter.instance(P))
    failing = {
        **gap.records,
        "thres1": [{**r, "type1_lo": 1.0, "type1_hi": 1.0} for r in gap.records["thres1"]],
    }
    broken = dataclasses.replace(gap, records=failing)
    assert math.isnan(broken.met_from("thres1", "type1", P.alpha)) and math.isnan(broken.p_win_at(math.nan))
    column = "simulated, whole interval within target from gap"
    verdicts = broken.verdicts.set_index("rule")[column]
    assert verdicts.loc["two-threshold Θ̂¹ (Thm 4.3)"] == (
        "at no gap tested (above it beyond Monte Carlo error at 2 of 2)"
    )
    exact_column = broken.verdicts.set_index("rule")["exactly within target from gap"]
    assert exact_column.loc["two-threshold Θ̂¹ (Thm 4.3)"] == "at no gap tested (above it at 2 of 2)"
    # a rate whose interval straddles the target does not count as within it
    straddle = {
        **gap.records,
        "GM, paper": [{**r, "type1_lo": 0.0, "type1_hi": 0.06} for r in gap.records["GM, paper"]],
    }
    assert math.isnan(dataclasses.replace(gap, records=straddle).met_from("GM, paper", "type1", 0.05))
    inside = {**gap.records, "GM, paper": [{**r, "type1_hi": 0.05} for r in gap.records["GM, paper"]]}
    assert dataclasses.replace(gap, records=inside).met_from("GM, paper", "type1", 0.05) == 0.0
    # a rule that was not simulated is said so, and meets its target from no gap
    skipped = dataclasses.replace(gap, records={**gap.records, "thres1-corrected": []})
    assert math.isnan(skipped.met_from("thres1-corrected", "type1", P.alpha))
    assert skipped.verdicts.set_index("rule").loc["Θ̂¹, Thm 4.3 corrected (misses θ*)", column] == "not run"
    # the corrected Θ̂¹'s Type I error is bounded by construction: the table does not show it as evidence
    assert "Θ̂¹, Thm 4.3 corrected" not in set(gap.verdicts["rule"])


def test_exact_rates_of_the_gap_sweep_against_closed_forms() -> None:
    """(1 − p)^K, GM's leader, 1 − p^K and the binomial misses, with p = 1/4 at zero gap; the rules without
    a closed form say so; the exact "within target from" gaps the chapter quotes."""
    P = small("distributed-mle", gap_values=[0.0, 0.25, 0.5, 3.0, 4.0, 5.0])
    gap = chapter.gap_sweep(P, chapter.instance(P))
    assert gap.p_exact[0] == pytest.approx(0.25, abs=1e-6)
    assert gap.exact("AM, paper", "type2")[0] == pytest.approx(0.75**9, abs=1e-6)
    assert gap.exact("GM, paper", "type1")[0] == pytest.approx(0.75, abs=1e-6)
    assert gap.exact("thres1", "type1")[0] == pytest.approx(1 - 0.25**9, abs=1e-6)
    assert gap.exact("thres2", "type2")[0] == pytest.approx(stats.binom.cdf(1, 9, 0.25), abs=1e-6)
    # Cor 4.4 (two won rounds of nine): θ* wins w ≥ 6 and the others one each of the rest, at zero gap
    recover = sum(stats.binom.pmf(w, 9, 0.25) * math.perm(3, 9 - w) / 3 ** (9 - w) for w in range(6, 10))
    assert gap.cor44_wins_needed() == 2 and gap.exact("cor44", "miss_exact")[0] == pytest.approx(1 - recover)
    assert all(math.isnan(v) for v in gap.exact("cor44", "type1"))
    # AM with the paper's K: 0.0578 at gap 0.25, 0.0437 at 0.5; GM with K = 9: 0.0561 at 3, 0.0105 at 4
    assert gap.exact("AM, paper", "type2")[1] == pytest.approx(0.05784, abs=1e-4)
    assert gap.exact("GM, corrected", "type1")[3] == pytest.approx(0.05614, abs=1e-4)
    assert gap.exactly_from("AM, paper", "type2", 0.05) == 0.5
    assert (
        gap.exactly_from("GM, corrected", "type1", 0.05),
        gap.exactly_from("GM, paper", "type1", 0.05),
    ) == (4, 5)
    verdicts = gap.verdicts.set_index("rule")["exactly within target from gap"]
    assert verdicts.loc["AM, paper's K"] == "0.5" and verdicts.loc["GM, corrected K"] == "4"
    # the corrected Θ̂¹'s miss at the gap nearest 5: P[Bin(96, p) < 72]; nan for a rule not run
    p5 = gap.p_exact[gap.gaps.index(5.0)]
    assert gap.exact_at("thres1-corrected", "type2", 4.9) == pytest.approx(stats.binom.cdf(71, 96, p5))
    skipped = dataclasses.replace(gap, records={**gap.records, "thres1-corrected": []})
    assert math.isnan(skipped.exact_at("thres1-corrected", "type2", 5.0))
    # an error without a closed form here is nan, and no gap is "exactly within" for it
    assert all(math.isnan(v) for v in gap.exact("GM, paper", "type2"))
    assert math.isnan(gap.exactly_from("GM, paper", "type2", 0.05))


def test_the_corrected_two_threshold_rule_runs_with_its_own_k_unless_too_large() -> None:
    P = small("distributed-mle")
    gap = chapter.gap_sweep(P, chapter.instance(P))
    assert gap.thm43_fixed.K == 96 and (gap.thm43_fixed.freq_1, gap.thm43_fixed.freq_2) == (0.75, 0.125)
    assert [r["K"] for r in gap.records["thres2-corrected"]] == [96, 96]
    assert gap.thres2_zero_gap_exact() == pytest.approx(0.75**9 + 9 * 0.25 * 0.75**8)
    small_pi = small("distributed-mle", pi=0.1)  # K = 2397 rounds: above CORRECTED_K_MAX, not simulated
    big = chapter.gap_sweep(small_pi, chapter.instance(small_pi))
    assert big.thm43_fixed.K > CORRECTED_K_MAX and big.records["thres1-corrected"] == []


def test_mle_errors_vs_gap_records_its_verdicts_and_draws() -> None:
    P = small("distributed-mle")
    gap = chapter.gap_sweep(P, chapter.instance(P))
    assert list(gap.tables()) == ["gap_verdicts"] and len(gap.verdicts) == 9
    assert list(gap.metrics()) == ["win_probability_vs_gap"] and len(gap.p_win) == 2
    assert set(gap.headline) >= {"gm_type1_gap_half", "am_type2_gap_zero", "cor44_exact_recovery_from_gap"}
    assert gap.wins_needed(corrected=True) <= gap.wins_needed(corrected=False)
    plt.close(gap.figure())
    cost = mle_errors_vs_gap.cost(dict(P))
    assert cost.seconds > 0 and cost.peak > 0 and cost.kept == 0
