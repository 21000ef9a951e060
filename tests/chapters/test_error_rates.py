"""The book's record error_rates (chapter distributed-mle): every sweep on small and unusual parameters,
the records in the order the chapter runs them, and the interval of a rate."""

from __future__ import annotations

import math
import re

import pytest
from small import small

from dpnet.chapters import distributed_mle as chapter
from dpnet.chapters.distributed_mle import error_rates
from dpnet.params import Cost


def test_every_experiment_runs_on_small_parameters_and_keeps_its_record_order() -> None:
    P = small("distributed-mle", n_agents=3, n_states=2, graph="path")
    inst = chapter.instance(P)
    eps = chapter.eps_sweep(P, inst)
    ks = chapter.k_sweep(P, inst, eps.freq43)
    gap = chapter.gap_sweep(P, inst)
    floor = chapter.win_floor(P, inst, gap.rounds)
    every = chapter.every_round(P, inst)
    rows = chapter.summary(eps, ks, gap, floor, every).rows
    assert len(rows) == 10 * 2 + 4 * 2 + 9 * 2 + len(floor.Ks) + len(every.records)
    assert [r["sweep"] for r in rows[:20]] == ["epsilon"] * 20 and rows[-1]["sweep"] == "every-round"
    assert {r["algorithm"] for r in eps.records["am-T"]} == {"AM (T = 20)"}
    assert all(math.isfinite(r["miss_exact"]) for r in gap.records["cor44"])
    verdicts = gap.verdicts["simulated, whole interval within target from gap"]
    assert all(v.startswith("at no gap tested") or re.fullmatch(r"[0-9.e+-]+", v) for v in verdicts)
    exact = gap.verdicts["exactly within target from gap"]
    assert all(
        v.startswith("at no gap tested") or v == "no closed form" or re.fullmatch(r"[0-9.e+-]+", v)
        for v in exact
    )
    assert set(eps.agreement["estimator"]) == {"AM", "GM", "two-threshold Θ̂¹", "two-threshold Θ̂²"}
    assert floor.states == (2, 3, 4, 5, 6) and floor.win_at(2)[0] == pytest.approx(0.5, abs=0.1)


def test_error_rates_interval_and_summary_record() -> None:
    record = {"type1": 0.1, "type1_lo": 0.05, "type1_hi": 0.1875}
    assert chapter.interval(record, "type1") == "0.050–0.188"
    assert chapter.interval(record, "type1", 4) == "0.0500–0.1875"
    summary = error_rates.Summary([record], {"gm_K": 3})
    assert summary.metrics() == {"error_rates": [record], "headline": {"gm_K": 3}} and summary.tables() == {}
    assert error_rates.cost({}) == Cost()
