"""Paper 001, Figure 7 (chapter distributed-estimation): the cost of privacy against ε under the text's
calibration, the authors' scale and the located noise of the script's last run; its streams, result and
cost; and the checks of ``dpnet.reference.estimation.us_figure7_checks`` and ``german_ol_checks``."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from check_cases import all_pass as _all
from check_cases import named as _named
from check_cases import verdicts as _verdicts
from small import small

from dpnet import reference as ref
from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters.distributed_estimation import p001_fig7
from dpnet.estimation import error_vs_epsilon, located_noise_errors


@pytest.fixture(scope="module")
def german_run():
    """Figure 7 on the German households alone, 30 rounds, a small ε grid."""
    P = small("distributed-estimation")
    nets = chapter.networks(P)
    return {"P": P, "nets": nets, "p001-fig7": chapter.error_vs_budget(P, nets)}


def us_cop() -> dict[str, dict[str, np.ndarray]]:
    """The independent simulation's US means (authors' scale), and the text's: Network DP the same (the
    neighbour weight sets it), Signal DP 1/ε times the authors'."""
    eps = np.array(ref.estimation.FIG7_EPS)
    code = {
        "OL-N": np.array(ref.estimation.US_FIG7_COP["OL-N"]),
        "MVUE-N": np.array(ref.estimation.US_FIG7_COP["MVUE-N"]),
        "OL-S": ref.estimation.US_FIG7_SIGNAL_FIRST["OL-S"] / (16 * eps),
        "MVUE-S": ref.estimation.US_FIG7_SIGNAL_FIRST["MVUE-S"] / (16 * eps),
    }
    paper = {**code, "OL-S": code["OL-S"] / eps, "MVUE-S": code["MVUE-S"] / eps}
    return {"paper": paper, "authors_code": code}


COD = {"OL-S": 1.48, "MVUE-S": 5.63, "OL-N": 5.15, "MVUE-N": 5.63}


def test_us_figure7_checks_on_the_independent_numbers_and_off_them():
    """Every claim passes on the independent numbers; each fails when its input moves; off the paper's grid
    only the claims are decided."""
    cop = us_cop()
    base = _verdicts(_named(ref.estimation.us_figure7_checks(cop, COD, published=True)))
    # the text's scale grows like 1/ε²: Signal DP is visible at the grid's smallest budgets
    assert base.pop("us-signal-negligible-paper") is False and all(base.values())
    names = list(_verdicts(ref.estimation.us_figure7_checks(cop, COD, published=True)))
    assert names == [
        "us-network-costlier", "us-signal-negligible-code", "us-signal-negligible-paper", "us-ol-n-values",
        "us-mvue-n-values", "us-mvue-s-first", "us-ol-s-first", "us-network-factor",
    ]  # fmt: skip
    paper, code = cop["paper"], cop["authors_code"]
    moved = {
        "us-network-costlier": {"paper": {**paper, "MVUE-N": paper["MVUE-S"] * 0.9}},
        "us-signal-negligible-code": {"authors_code": {**code, "OL-S": code["OL-S"] * 20}},
        "us-signal-negligible-paper": {"paper": {**paper, "OL-S": paper["OL-S"] * 20}},
        "us-ol-n-values": {"authors_code": {**code, "OL-N": code["OL-N"] * 1.2}},
    }
    for name, change in moved.items():
        verdicts = _verdicts(ref.estimation.us_figure7_checks({**cop, **change}, COD, published=True))
        assert verdicts[name] is False, name
    quiet = {"paper": {**paper, "OL-S": paper["OL-S"] / 1e4, "MVUE-S": paper["MVUE-S"] / 1e4}}
    verdicts = _verdicts(ref.estimation.us_figure7_checks({**cop, **quiet}, COD, published=True))
    assert verdicts["us-signal-negligible-paper"] is True
    verdicts = _verdicts(ref.estimation.us_figure7_checks(cop, COD, published=False))
    decided = {n for n, v in verdicts.items() if v is not None}
    assert decided == {"us-network-costlier", "us-signal-negligible-code", "us-signal-negligible-paper",
                       "us-network-factor"}  # fmt: skip
    absent = _verdicts(ref.estimation.us_figure7_checks(None, None, published=True))
    assert set(absent) == set(names) and set(absent.values()) == {None}


def test_us_figure7_checks_are_undecided_on_an_empty_grid():
    """A claim about every ε (or some ε) of the grid decides nothing when the grid is empty."""
    empty = {cal: {m: np.array([]) for m in ("MVUE-S", "MVUE-N", "OL-S", "OL-N")}
             for cal in ("paper", "authors_code")}  # fmt: skip
    verdicts = _verdicts(ref.estimation.us_figure7_checks(empty, COD, published=False))
    for name in ("us-network-costlier", "us-signal-negligible-code", "us-signal-negligible-paper",
                 "us-network-factor"):  # fmt: skip
        assert verdicts[name] is None, name


def test_german_ol_checks():
    assert _all(_named(ref.estimation.german_ol_checks({"OL-S": 0.3, "OL-N": 3.0})))
    assert not _all(ref.estimation.german_ol_checks({"OL-S": 0.6, "OL-N": 3.0}))
    assert not _all(ref.estimation.german_ol_checks({"OL-S": 0.3, "OL-N": 1.7}))
    assert set(_verdicts(ref.estimation.german_ol_checks(None)).values()) == {None}


def test_figure7_calibrations_coincide_at_eps_one(german_run) -> None:
    """Figure 7 draws each mechanism's unit noise once for both calibrations: at ε = 1 the calibrations
    coincide, so the two columns agree exactly."""
    s = german_run["p001-fig7"].summary
    at_one = s[s.eps == 1.0].pivot(index="mechanism", columns="calibration", values="cop_mean")
    np.testing.assert_array_equal(at_one["paper"], at_one["authors_code"])


def test_figure7_slopes_follow_the_scales(german_run) -> None:
    """The slopes in ε are the noise scales' exponents (−1 for the authors' scale, −2 for the text's where
    the smooth sensitivity sets the noise), not findings: the scale family is exact, draw by draw
    (``tests/test_estimation.py::test_cop_is_a_scale_family_in_epsilon``), so the fitted slopes differ from
    the exponents only through the draws, and the result records them as a table, not as checks."""
    fig7 = german_run["p001-fig7"]
    for (dataset, cal, mech), (slope, se) in fig7.slopes.items():
        if cal == "located":
            continue
        exponent = -1.0 if cal == "authors_code" else -2.0
        assert abs(slope - exponent) < 0.3, (dataset, cal, mech, slope, se)
    assert not any(c.name.startswith(("slope-", "decreasing-")) for c in fig7.checks["p001-fig7"])


def test_figure7_streams_follow_the_dataset_not_its_position(german_run) -> None:
    """The German households keep their streams (704, 4..7) when the run leaves the US grid out; the
    located noise draws from children 12..15."""
    P, nets = german_run["P"], german_run["nets"]
    mechanisms = ["MVUE-S", "MVUE-N", "OL-S", "OL-N"]
    data = nets.data["german_households"]
    rngs = [P.stream("p001-fig7").child(4 + k).rng() for k in range(4)]
    table = error_vs_epsilon(data, mechanisms, P.eps_values, rngs, delta=P.delta, calibration="paper",
                             n_draws=P.n_draws)  # fmt: skip
    runs = german_run["p001-fig7"].runs
    mine = runs[runs.calibration == "paper"].reset_index(drop=True)
    np.testing.assert_array_equal(mine["cop"], table["cop"])
    located = [P.stream("p001-fig7").child(12 + k).rng() for k in range(4)]
    table = located_noise_errors(data, mechanisms, P.eps_values, located, delta=P.delta, n_draws=P.n_draws)
    mine = runs[runs.calibration == "located"].reset_index(drop=True)
    np.testing.assert_array_equal(mine["cop"], table["cop"])


def test_p001_fig7_result_tables_and_figure(german_run) -> None:
    """One summary row per (mechanism, noise, ε), one slope per (noise, mechanism); the US shares and factors
    are nan without the US grid; one row of three panels per dataset."""
    fig7 = german_run["p001-fig7"]
    assert list(fig7.tables()) == ["cop_vs_eps", "eps_slopes"]
    assert list(p001_fig7.CALIBRATIONS) == ["paper", "authors_code", "located"]
    assert len(fig7.summary) == 4 * 3 * 3 and len(fig7.slope_table) == 3 * 4
    assert len(fig7.metrics()["cop_vs_eps"]) == len(fig7.summary)
    assert math.isnan(fig7.us_signal_share("paper")) and math.isnan(fig7.us_network_factor("authors_code"))
    assert math.isnan(fig7.value("us_power_grid", "paper", "OL-S", 1.0))
    assert fig7.value("german_households", "located", "OL-S", 1.0) > 0
    assert [c.name for c in fig7.checks["p001-fig7"]][-2:] == ["german-ol-s-value", "german-ol-n-value"]
    assert [title for _, title, _ in fig7.deviations] == [
        "smooth-sensitivity noise scale",
        "the noise the published figure was drawn with",
    ]
    figure = fig7.figure()
    assert len(figure.axes) == 3
    plt.close(figure)


def test_p001_fig7_cost_counts_the_columns_and_the_noise_scales() -> None:
    values = {"dataset": ["us_power_grid", "german_households"], "horizon": "paper",
              "eps_values": [0.5, 1.0, 2.0], "n_draws": 10}  # fmt: skip
    cost = p001_fig7.cost(values)
    units = 4941 * 100 + 969 * 1096
    columns = (1 + 2 * 3 * 10) + (1 + 10 + 3)
    assert cost.seconds == pytest.approx(4 * 5.5e-8 * units * columns, rel=1e-12)
    assert cost.peak == 32.0 * 3 * 969 * 1096 and cost.kept == 0.0
