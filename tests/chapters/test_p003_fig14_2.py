"""Paper 003, Figure 14.2 (Chapter 4): the runtime study's checks against the paper, §14.2's counts, the
decrypted statistic it reports, and its cost."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpnet import reference, runtime
from dpnet.chapters import resolve
from dpnet.chapters.treatment_identification import p003_fig14_2


def test_runtime_checks_pass_on_the_claims_and_fail_otherwise() -> None:
    checks = reference.identification.runtime_checks
    passing = checks(
        {"cancer, n = 96, 40,960 rows": 0.04, "actg, n = 6, 4,096 rows": 0.01},
        {(6, 4096): 12.0},
        published_speedups={(6, 4096): 30.0},
    )
    assert [(c.name, c.passed) for c in passing] == [
        ("faster-than-he", True),
        ("published-faster-than-he", True),
        ("under-1s", True),
    ]
    assert "cancer, n = 96" in passing[2].detail and "25×" in passing[2].detail  # the margin to 1 s
    assert "not FAMHE" in passing[0].claim and "composite" in passing[0].claim
    failing = checks({"cancer, n = 96, 40,960 rows": 1.2}, {(6, 4096): 8.5, (96, 4096): 40.0},
                     published_speedups={(6, 4096): 9.0})  # fmt: skip
    assert [c.passed for c in failing] == [False, False, False]
    assert "smallest at n = 6, 4,096 rows; 1 of 2 points below 10" in failing[0].detail


def test_runtime_checks_are_undecided_on_empty_sets() -> None:
    """No timed point, no encryption: the claims over every point are undecided, not passed."""
    undefined = reference.identification.runtime_checks({}, {}, published_speedups={})
    assert [(c.name, c.passed) for c in undefined] == [
        ("faster-than-he", None),
        ("published-faster-than-he", None),
        ("under-1s", None),
    ]
    assert all("undecided" in c.detail for c in undefined)


def test_overhead_check() -> None:
    overheads = reference.identification.overhead_check
    assert overheads(336.0, 1.8).passed is True
    assert overheads(336.0, 60.0).passed is False
    assert overheads(math.nan, 1.8).passed is None  # one number of centres: no growth to compare


def _records() -> pd.DataFrame:
    """Two numbers of centres and two cohort sizes of one cohort, every method, the phases that matter
    (HE's setup is a fifth of its total)."""
    rows = []
    for n in (6, 96):
        for size in (4096, 40960):
            for method, scale in zip(runtime.METHODS, (0.01, 0.5, 0.1), strict=True):
                for phase in ("communication", "total", "local per centre", "setup"):
                    if phase == "setup" and method != runtime.METHODS[1]:
                        continue
                    result = (
                        {"lrt": size / 100} if method == runtime.METHODS[1] else {"K": 6, "T": 30 + n // 6}
                    )
                    scale = scale / 5 if phase == "setup" else scale
                    rows.append({"cohort": "cancer", "method": method, "n": n, "rows": size, "phase": phase,
                                 "seconds": scale * (1 + n / 96), "result": result})  # fmt: skip
    return pd.DataFrame(rows)


def test_operations_growth_and_the_decrypted_statistic() -> None:
    study = p003_fig14_2.RuntimeStudy(("cancer",), (6, 96), (4096, 40960), _records(), {}, {}, True)
    ops = study.operations()
    first = ops[(ops.n == 6) & (ops.rows == 4096)].iloc[0]
    assert first["belief updates per centre"] == 2 * 6 * 31 * 5 and first["numbers stored"] == 12
    assert first["n_i"] == 683  # ⌈4096 / 6⌉
    grow = study.growth("cancer", 40960)
    assert grow["updates"] == pytest.approx((46 * 95) / (31 * 5))
    assert grow["network updates"] == pytest.approx(grow["updates"] * 16)
    assert grow["communication"] == pytest.approx(2.0 / (1 + 6 / 96))
    assert study.he_lrt == 409.6  # the largest cohort size's statistic, whatever the order of the records
    shuffled = _records().sample(frac=1.0, random_state=1).reset_index(drop=True)
    assert (
        p003_fig14_2.RuntimeStudy(("cancer",), (6, 96), (4096, 40960), shuffled, {}, {}, True).he_lrt == 409.6
    )
    assert study.iterations().loc[("cancer", 4096)].tolist() == [31, 46]
    one = p003_fig14_2.RuntimeStudy(("cancer",), (6,), (4096,), _records()[lambda r: r.n == 6], {}, {}, True)
    assert all(np.isnan(v) for v in one.growth("cancer", 4096).values())


def test_ratios_with_and_without_key_generation() -> None:
    """HE over each DP test, with HE's setup (key generation) and without it; the slowest point and how
    many points fall below 10×."""
    records = _records().to_dict("records")
    speedups = {
        k: runtime.speedups(records, dp=m, without_setup=b) for k, (m, b) in p003_fig14_2.RATIOS.items()
    }
    assert speedups["simple"][(6, 4096)] == pytest.approx(50.0)
    assert speedups["composite"][(96, 40960)] == pytest.approx(5.0)
    assert speedups["simple without key generation"][(6, 4096)] == pytest.approx(40.0)  # (0.5·1.0625·0.8)/…
    study = p003_fig14_2.RuntimeStudy(("cancer",), (6, 96), (4096, 40960), _records(), speedups, {}, True)
    assert study.speedup_range("composite") == pytest.approx((5.0, 5.0))
    slow = study.slowest_ratio("composite")
    assert (slow["below"], slow["points"]) == (4, 4)
    assert study.seconds(runtime.METHODS[1], "setup", 6, 4096) == pytest.approx(0.1 * (1 + 6 / 96))
    assert np.isnan(study.seconds(runtime.METHODS[1], "setup", 12, 4096))  # not timed
    empty = p003_fig14_2.RuntimeStudy(("actg",), (6,), (4096,), _records(), {}, {}, True)
    assert np.isnan(empty.slowest_ratio()["ratio"]) and all(np.isnan(v) for v in empty.speedup_range())


def test_cost_times_every_point_per_repeat() -> None:
    values = dict(resolve("treatment-identification", {}))
    point = p003_fig14_2.cost(
        {**values, "runtime_n_values": [6], "runtime_rows": [4096], "runtime_repeats": 2}
    )
    assert point.seconds == pytest.approx(
        2 * (6 * (0.0015 * 2 + 0.026 + 0.0021 + 0.0015) + 4096 * (5e-6 * 2 + 2.3e-6))
    )  # the composite test's Cox fits and belief exchanges too, on the cancer cohort
    assert point.peak == 4.5e5 * 6 + 270.0 * 4096
    actg_only = p003_fig14_2.cost({**values, "runtime_cohorts": ["actg"], "runtime_n_values": [6],
                                   "runtime_rows": [4096], "runtime_repeats": 1})  # fmt: skip
    assert actg_only.seconds == pytest.approx(6 * 0.0015 + 5e-6 * 4096)  # no encryption off the cancer cohort


def test_total_ranges_per_test_and_the_slowest_total() -> None:
    """Each DP test's range of totals, and the slowest total of either (the point ``under-1s`` decides
    on): here the composite test at 96 centres."""
    study = p003_fig14_2.RuntimeStudy(("cancer",), (6, 96), (4096, 40960), _records(), {}, {}, True)
    assert study.total_range("simple") == pytest.approx((0.01 * (1 + 6 / 96), 0.02))
    assert study.total_range("composite") == pytest.approx((0.1 * (1 + 6 / 96), 0.2))
    assert study.dp_range == study.total_range("simple")
    slowest = study.slowest_total()
    assert slowest["seconds"] == pytest.approx(0.2)
    assert (slowest["test"], slowest["cohort"], slowest["n"]) == ("composite", "cancer", 96)
    he_only = _records()[lambda r: r.method == runtime.METHODS[1]]
    none = p003_fig14_2.RuntimeStudy(("cancer",), (6, 96), (4096, 40960), he_only, {}, {}, True)
    assert np.isnan(none.slowest_total()["seconds"]) and none.slowest_total()["test"] is None
    assert all(np.isnan(v) for v in none.total_range("composite"))
