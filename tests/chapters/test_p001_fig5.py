"""Paper 001, Figure 5 (chapter distributed-estimation): online learning under Signal DP, the slopes of
its errors against the exact second moments, and its cost."""

from __future__ import annotations

import pytest

from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_estimation import p001_fig3, p001_fig5


@pytest.fixture(scope="module")
def german_run():
    """Figure 5 on the German households alone, 150 rounds (the early window, not the late one)."""
    P = resolve("distributed-estimation", {"dataset": "german_households", "horizon": 150})
    nets = chapter.networks(P)
    return {"P": P, "nets": nets, "p001-fig5": chapter.online_signal(P, nets)}


def test_p001_fig5_slopes_against_the_exact_second_moments(german_run) -> None:
    """Both early slopes are fitted against the exact second moments' slope, and only the one without DP is
    checked (against a reference: the Signal-DP noise is checked round by round instead); the late window
    [100, 1000] needs more rounds, so its checks are undefined and it adds no row; the US grid has no late
    window."""
    fig5 = german_run["p001-fig5"]
    rows = fig5.slopes["german_households"]
    assert [(r["quantity"], r["window"]) for r in rows] == [
        ("error without DP", "[10, 100]"),
        ("error with DP", "[10, 100]"),
        ("error without DP, RMS over 30 data draws", "[10, 100]"),
    ]
    assert all(r["basis"] == "exact second moments" and r["predicted"] == r["exact"] for r in rows)
    checks = {c.name: c for c in fig5.checks["p001-fig5"]}
    assert list(checks) == [
        "us-noise-invisible", "us-without-dp-early", "german-without-dp-early", "german-without-dp-late",
        "german-with-dp-late",
    ]  # fmt: skip
    assert all(c.against == "reference" for n, c in checks.items() if n != "us-noise-invisible")
    assert checks["us-noise-invisible"].against == "paper"
    assert checks["german-without-dp-early"].passed is not None
    late = checks["german-with-dp-late"]
    assert late.passed is None and "too short for the window [100, 1000]" in late.detail
    assert checks["us-without-dp-early"].detail == "undefined: the dataset is not in this run"
    assert checks["us-noise-invisible"].passed is None


def test_p001_fig5_cost_is_its_sample_paths() -> None:
    values = {"dataset": "us_power_grid", "horizon": 200, "paths_drawn": 100}
    assert p001_fig5.cost(values) == p001_fig3.sample_paths_cost(values, "p001-fig5")
    assert p001_fig5.cost(values).kept == 2 * 16.0 * 4941 * 201
