"""Paper 001, Figure 6 (chapter distributed-estimation): online learning under Network DP, its slopes
against t^(−1/2) and its cost, and the checks of ``dpnet.reference.estimation.slope_checks`` and
``us_nonprivate_checks``."""

from __future__ import annotations

from check_cases import all_pass as _all
from check_cases import named as _named
from check_cases import verdicts as _verdicts

from dpnet import reference as ref
from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters import resolve
from dpnet.chapters.distributed_estimation import p001_fig3, p001_fig6


def test_slope_checks():
    row = {"name": "us-without-dp-last-decade", "dataset": "us_power_grid", "algorithm": "OL-N",
           "quantity": "q", "window": "[10, 100]", "predicted": -0.5, "basis": "t^(−1/2)"}  # fmt: skip
    assert _all(ref.estimation.slope_checks([{**row, "slope": -0.55}]))
    assert not _all(ref.estimation.slope_checks([{**row, "slope": -0.65}]))
    (undefined,) = ref.estimation.slope_checks([{**row, "undefined": "the horizon T = 50 is too short"}])
    assert undefined.passed is None and "too short" in undefined.detail and undefined.name == row["name"]


def test_us_nonprivate_checks_values_only_on_the_paper_setting():
    assert _all(_named(ref.estimation.us_nonprivate_checks(ref.estimation.US_NONPRIVATE, published=True)))
    assert not _all(
        ref.estimation.us_nonprivate_checks({"OL-S": 1.48, "OL-N": 5.15, "MVUE": 4.0}, published=True)
    )
    verdicts = _verdicts(
        ref.estimation.us_nonprivate_checks({"OL-S": 1.48, "OL-N": 5.15, "MVUE": 4.0}, published=False)
    )
    assert verdicts == {"us-ol-s-without-dp": None, "us-ol-n-without-dp": None, "us-mvue-without-dp": None,
                        "us-ordering": False}  # fmt: skip
    assert set(_verdicts(ref.estimation.us_nonprivate_checks(None, published=True)).values()) == {None}


def test_noticeable_cost_check():
    """Network DP must raise the total error by more than 3 %, and Signal DP by less; undecided without the
    US grid."""
    assert _all(ref.estimation.noticeable_cost_check(0.37, 0.0))
    assert not _all(ref.estimation.noticeable_cost_check(0.02, 0.0))
    assert not _all(ref.estimation.noticeable_cost_check(0.37, 0.05))
    assert _verdicts(ref.estimation.noticeable_cost_check(None, None)) == {"us-noticeable-cost": None}


def test_p001_fig6_slopes_over_the_last_decade_against_minus_one_half() -> None:
    """On the German households alone: the slopes over [T/10, T] against the paper's rate −1/2 (checks
    against the paper); without the US grid its errors without DP are not compared."""
    P = resolve("distributed-estimation", {"dataset": "german_households", "horizon": 40})
    nets = chapter.networks(P)
    fig3, fig5 = chapter.mvue_signal(P, nets), chapter.online_signal(P, nets)
    fig6 = chapter.online_network(P, nets, fig3, fig5)
    rows = fig6.slopes["german_households"]
    assert [r["window"] for r in rows] == ["[4, 40]", "[4, 40]"]
    assert all(r["predicted"] == -0.5 and r["basis"] == "t^(−1/2)" for r in rows)
    checks = fig6.checks["p001-fig6"]
    assert [c.name for c in checks[:5]] == [
        "us-noticeable-cost", "us-without-dp-last-decade", "us-with-dp-last-decade",
        "german-without-dp-last-decade", "german-with-dp-last-decade",
    ]  # fmt: skip
    assert all(c.against == "paper" for c in checks[:5])
    assert _verdicts(checks)["us-ordering"] is None and _verdicts(checks)["us-noticeable-cost"] is None


def test_p001_fig6_cost_is_its_sample_paths() -> None:
    values = {"dataset": ["german_households"], "horizon": "paper", "paths_drawn": 250}
    assert p001_fig6.cost(values) == p001_fig3.sample_paths_cost(values, "p001-fig6")
    assert p001_fig6.cost(values).kept == 2 * 16.0 * 969 * 1097
