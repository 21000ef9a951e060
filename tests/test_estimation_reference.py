"""The published checks of paper 001 pass on the published numbers and fail when they are off."""

from __future__ import annotations

import numpy as np

from dpnet import reference as ref

US = {"n": 4941, "m": 6594, "beta_star": 0.9998575, "lambda_n": -0.95727, "a_max": 0.5, "connected": True}
GERMAN = {
    "n": 969,
    "m": 13236,
    "beta_star": 0.990181,
    "lambda_n": -0.19572,
    "a_max": 1 / 9,
    "connected": True,
}


def _all(checks):
    return all(passed for _, passed, _ in checks)


def test_graph_checks_pass_on_the_spec_values_and_fail_off_them():
    assert _all(ref.graph_checks({"us_power_grid": US, "german_households": GERMAN}))
    assert not _all(ref.graph_checks({"us_power_grid": {**US, "beta_star": 0.99980}}))
    assert not _all(ref.graph_checks({"german_households": {**GERMAN, "m": 13235}}))
    assert not _all(ref.graph_checks({"german_households": {**GERMAN, "connected": False}}))


def test_german_law_check():
    assert _all(ref.german_law_checks(1.668, 1.041))
    assert not _all(ref.german_law_checks(1.70, 1.04))


def test_moment_checks_fail_beyond_five_percent_and_on_a_broken_average():
    rows = [{"algorithm": "Alg 3", "quantity": "CoP²", "exact": 1.0, "monte_carlo": 1.04}]
    assert _all(ref.moment_checks(rows, 1e-15))
    assert not _all(ref.moment_checks([{**rows[0], "monte_carlo": 1.06}], 1e-15))
    assert not _all(ref.moment_checks(rows, 1e-6))


def test_bound_checks():
    assert _all(ref.bound_checks([{"case": "Thm 4.1", "error": 1.0, "bound": 2.0}]))
    assert not _all(ref.bound_checks([{"case": "Thm 4.1", "error": 3.0, "bound": 2.0}]))


def test_slope_and_rate_checks():
    row = {"dataset": "d", "algorithm": "OL-N", "quantity": "q", "window": "[10, 100]", "predicted": -0.5,
           "basis": "t^(−1/2)"}  # fmt: skip
    assert _all(ref.slope_checks([{**row, "slope": -0.55}]))
    assert not _all(ref.slope_checks([{**row, "slope": -0.65}]))
    beta = 0.99018
    assert _all(ref.mvue_rate_check(np.log(beta) * 1.05, beta, "[500, 1096]"))
    assert not _all(ref.mvue_rate_check(np.log(beta) * 1.2, beta, "[500, 1096]"))


def test_eps_slope_checks_use_the_calibration_and_network_targets():
    good = {("us_power_grid", "paper", "OL-N"): (-1.0, 0.001),
            ("german_households", "paper", "OL-N"): (-2.0, 0.001),
            ("us_power_grid", "authors_code", "MVUE-S"): (-1.02, 0.001)}  # fmt: skip
    assert _all(ref.eps_slope_checks(good))
    assert not _all(ref.eps_slope_checks({("us_power_grid", "paper", "OL-S"): (-1.0, 0.001)}))
    # the Monte Carlo allowance grows with the slope's standard error, and only with it
    assert not _all(ref.eps_slope_checks({("german_households", "authors_code", "MVUE-S"): (-0.9, 0.01)}))
    assert _all(ref.eps_slope_checks({("german_households", "authors_code", "MVUE-S"): (-0.9, 0.04)}))


def test_us_checks_on_the_spec_numbers_and_off_them():
    assert _all(ref.us_nonprivate_checks(ref.US_NONPRIVATE))
    assert not _all(ref.us_nonprivate_checks({"OL-S": 1.48, "OL-N": 5.15, "MVUE": 4.0}))
    cop = {
        "OL-N": np.array(ref.US_FIG7_COP["OL-N"]),
        "MVUE-N": np.array(ref.US_FIG7_COP["MVUE-N"]),
        # Signal DP ∝ 1/ε from the spec's value at ε = 1/16
        "OL-S": ref.US_FIG7_SIGNAL_FIRST["OL-S"] / (16 * np.array(ref.FIG7_EPS)),
        "MVUE-S": ref.US_FIG7_SIGNAL_FIRST["MVUE-S"] / (16 * np.array(ref.FIG7_EPS)),
    }
    cod = {"OL-S": 1.48, "MVUE-S": 5.63}  # fmt: skip
    assert _all(ref.us_figure7_checks(cop, cod))
    assert not _all(ref.us_figure7_checks({**cop, "OL-N": cop["OL-N"] * 1.2}, cod))
    assert not _all(ref.us_figure7_checks({**cop, "OL-S": cop["OL-N"] / 500}, cod))
    assert not _all(ref.us_figure7_checks({**cop, "MVUE-S": cop["MVUE-S"] * 1.2}, cod))


def test_german_and_qualitative_checks():
    assert _all(ref.german_ol_checks({"OL-S": 0.3, "OL-N": 3.0}))
    assert not _all(ref.german_ol_checks({"OL-S": 0.6, "OL-N": 3.0}))
    rows = [{"cop": 1.0, "cod": 2.0, "te": 2.5}]
    assert _all(ref.qualitative_checks(rows, {"x": True}))
    assert not _all(ref.qualitative_checks([{"cop": 1.0, "cod": 2.0, "te": 3.5}], {}))
    assert not _all(ref.qualitative_checks(rows, {"x": False}))
