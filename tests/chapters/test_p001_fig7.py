"""Paper 001, Figure 7 (chapter distributed-estimation): the cost of privacy against ε, its streams,
result and cost, and the checks of ``dpnet.reference.estimation.eps_slope_checks``,
``us_figure7_checks``, ``german_ol_checks`` and ``monotone_checks``."""

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
from dpnet.estimation import error_vs_epsilon


@pytest.fixture(scope="module")
def german_run():
    """Figure 7 on the German households alone, 30 rounds, a small ε grid."""
    P = small("distributed-estimation")
    nets = chapter.networks(P)
    return {"P": P, "nets": nets, "p001-fig7": chapter.error_vs_budget(P, nets)}


def test_eps_slope_checks_use_the_calibration_and_network_targets():
    good = {("us_power_grid", "paper", "OL-N"): (-1.0, 0.001),
            ("german_households", "paper", "OL-N"): (-2.0, 0.001),
            ("us_power_grid", "authors_code", "MVUE-S"): (-1.02, 0.001)}  # fmt: skip
    checks = _named(ref.estimation.eps_slope_checks(good))
    assert _all(checks)
    assert [c.name for c in checks] == [
        "slope-us-paper-ol-n",
        "slope-german-paper-ol-n",
        "slope-us-code-mvue-s",
    ]
    assert not _all(ref.estimation.eps_slope_checks({("us_power_grid", "paper", "OL-S"): (-1.0, 0.001)}))
    # the Monte Carlo allowance grows with the slope's standard error, and only with it
    assert not _all(
        ref.estimation.eps_slope_checks({("german_households", "authors_code", "MVUE-S"): (-0.9, 0.01)})
    )
    assert _all(
        ref.estimation.eps_slope_checks({("german_households", "authors_code", "MVUE-S"): (-0.9, 0.04)})
    )
    assert _verdicts(ref.estimation.eps_slope_checks({("us_power_grid", "paper", "OL-N"): None})) == {
        "slope-us-paper-ol-n": None
    }


def test_us_figure7_checks_on_the_independent_numbers_and_off_them():
    cop = {
        "OL-N": np.array(ref.estimation.US_FIG7_COP["OL-N"]),
        "MVUE-N": np.array(ref.estimation.US_FIG7_COP["MVUE-N"]),
        # Signal DP ∝ 1/ε from the independent value at ε = 1/16
        "OL-S": ref.estimation.US_FIG7_SIGNAL_FIRST["OL-S"] / (16 * np.array(ref.estimation.FIG7_EPS)),
        "MVUE-S": ref.estimation.US_FIG7_SIGNAL_FIRST["MVUE-S"] / (16 * np.array(ref.estimation.FIG7_EPS)),
    }
    cod = {"OL-S": 1.48, "MVUE-S": 5.63}  # fmt: skip
    assert _all(_named(ref.estimation.us_figure7_checks(cop, cod, published=True)))
    assert not _all(ref.estimation.us_figure7_checks({**cop, "OL-N": cop["OL-N"] * 1.2}, cod, published=True))
    assert not _all(ref.estimation.us_figure7_checks({**cop, "OL-S": cop["OL-N"] / 500}, cod, published=True))
    assert not _all(
        ref.estimation.us_figure7_checks({**cop, "MVUE-S": cop["MVUE-S"] * 1.2}, cod, published=True)
    )
    # off the paper's grid only the claims of §5.3 are decided
    verdicts = _verdicts(ref.estimation.us_figure7_checks(cop, cod, published=False))
    decided = {n for n, v in verdicts.items() if v is not None}
    assert decided == {"us-mvue-s-negligible", "us-ol-s-negligible", "us-network-factor"}
    assert not _verdicts(
        ref.estimation.us_figure7_checks({**cop, "OL-S": cop["OL-S"] * 20}, cod, published=False)
    )["us-ol-s-negligible"]


def test_german_and_monotone_checks():
    assert _all(_named(ref.estimation.german_ol_checks({"OL-S": 0.3, "OL-N": 3.0})))
    assert not _all(ref.estimation.german_ol_checks({"OL-S": 0.6, "OL-N": 3.0}))
    assert not _all(ref.estimation.german_ol_checks({"OL-S": 0.3, "OL-N": 1.7}))
    assert set(_verdicts(ref.estimation.german_ol_checks(None)).values()) == {None}
    key = ("us_power_grid", "authors_code", "OL-N")
    assert _verdicts(ref.estimation.monotone_checks({key: True})) == {"decreasing-us-code-ol-n": True}
    assert _verdicts(ref.estimation.monotone_checks({key: False})) == {"decreasing-us-code-ol-n": False}
    assert _verdicts(ref.estimation.monotone_checks({key: None})) == {"decreasing-us-code-ol-n": None}


def test_figure7_calibrations_coincide_at_eps_one(german_run) -> None:
    """Figure 7 draws each mechanism's unit noise once for both calibrations: at ε = 1 the calibrations
    coincide, so the two columns agree exactly."""
    s = german_run["p001-fig7"].summary
    at_one = s[s.eps == 1.0].pivot(index="mechanism", columns="calibration", values="cop_mean")
    np.testing.assert_array_equal(at_one["paper"], at_one["authors_code"])


def test_figure7_streams_follow_the_dataset_not_its_position(german_run) -> None:
    """The German households keep their published streams (704, 4..7) when the run leaves the US grid out."""
    P, nets = german_run["P"], german_run["nets"]
    rngs = [P.stream("p001-fig7").child(4 + k).rng() for k in range(4)]
    mechanisms = ["MVUE-S", "MVUE-N", "OL-S", "OL-N"]
    data = nets.data["german_households"]
    table = error_vs_epsilon(data, mechanisms, P.eps_values, rngs, delta=P.delta, calibration="paper",
                             n_draws=P.n_draws)  # fmt: skip
    runs = german_run["p001-fig7"].runs
    mine = runs[runs.calibration == "paper"].reset_index(drop=True)
    np.testing.assert_array_equal(mine["cop"], table["cop"])


def test_p001_fig7_result_tables_and_figure(german_run) -> None:
    """One summary row per (mechanism, calibration, ε), one slope per (calibration, mechanism); the US
    shares are nan without the US grid; one row of panels per dataset."""
    fig7 = german_run["p001-fig7"]
    assert list(fig7.tables()) == ["cop_vs_eps", "eps_slopes"]
    assert len(fig7.summary) == 4 * 2 * 3 and len(fig7.slope_table) == 2 * 4
    assert len(fig7.metrics()["cop_vs_eps"]) == len(fig7.summary)
    assert math.isnan(fig7.us_signal_share) and math.isnan(fig7.us_network_factor)
    assert fig7.deviations == (
        ("p001-fig7", "smooth-sensitivity noise scale", "note-est-smooth-calibration"),
    )
    figure = fig7.figure()
    assert len(figure.axes) == 2
    plt.close(figure)


def test_p001_fig7_cost_counts_the_columns_and_the_noise_scales() -> None:
    values = {"dataset": ["us_power_grid", "german_households"], "horizon": "paper",
              "eps_values": [0.5, 1.0, 2.0], "n_draws": 10}  # fmt: skip
    cost = p001_fig7.cost(values)
    units = 4941 * 100 + 969 * 1096
    assert cost.seconds == pytest.approx(4 * 5.5e-8 * units * (1 + 2 * 3 * 10), rel=1e-12)
    assert cost.peak == 32.0 * 3 * 969 * 1096 and cost.kept == 0.0
