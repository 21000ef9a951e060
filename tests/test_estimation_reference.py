"""The checks of paper 001 (dpnet.reference.estimation): they pass on the published and independent
numbers, fail when a number is off, are undefined (``None``) for a dataset the run leaves out, and compare
with values only on the paper's setting. Every check is named, and names are unique within an item."""

from __future__ import annotations

import numpy as np
import pytest

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
#: Figure 4 at the independent numbers: US CoP 12.18 and TE 13.5 at ε = 0.5 against CoD 6.09.
FIG4_US = {"cop": 12.18, "te": 13.5, "cod": 6.09, "signal_cop": 0.016, "weight_share": 1.0}
FIG4_GERMAN = {"cop": 6.0, "cod": 2e-5, "sensitivity_share": 0.999}


def _all(checks):
    return all(c.passed for c in checks)


def _verdicts(checks):
    return {c.name: c.passed for c in checks}


def _named(checks):
    names = [c.name for c in checks]
    assert all(names) and len(set(names)) == len(names), names
    return checks


def test_graph_checks_pass_on_the_published_values_and_fail_off_them():
    checks = _named(ref.graph_checks({"us_power_grid": US, "german_households": GERMAN}))
    assert _all(checks)
    assert set(_verdicts(checks)) == {
        "us-size", "us-beta-star", "us-lambda-n", "us-a-max",
        "german-size", "german-beta-star", "german-a-max",
    }  # fmt: skip
    assert not _all(ref.graph_checks({"us_power_grid": {**US, "beta_star": 0.99980}}))
    assert not _all(ref.graph_checks({"german_households": {**GERMAN, "m": 13235}}))
    assert not _all(ref.graph_checks({"german_households": {**GERMAN, "connected": False}}))
    absent = ref.graph_checks({"us_power_grid": None, "german_households": GERMAN})
    assert {n: p for n, p in _verdicts(absent).items() if n.startswith("us")} == dict.fromkeys(
        ("us-size", "us-beta-star", "us-lambda-n", "us-a-max")
    )


def test_moment_checks_fail_beyond_five_percent():
    rows = [{"name": "alg3-cop", "algorithm": "Alg 3", "quantity": "CoP²", "exact": 1.0, "monte_carlo": 1.04}]
    assert _all(_named(ref.moment_checks(rows)))
    assert not _all(ref.moment_checks([{**rows[0], "monte_carlo": 1.06}]))
    assert not _all(ref.moment_checks([{**rows[0], "monte_carlo": 0.94}]))


def test_bound_checks():
    row = {"name": "alg4-bound", "case": "Thm 4.1", "error": 1.0, "bound": 2.0}
    assert _all(ref.bound_checks([row]))
    assert not _all(ref.bound_checks([{**row, "error": 3.0}]))


def test_slope_and_rate_checks():
    row = {"name": "us-without-dp-last-decade", "dataset": "us_power_grid", "algorithm": "OL-N",
           "quantity": "q", "window": "[10, 100]", "predicted": -0.5, "basis": "t^(−1/2)"}  # fmt: skip
    assert _all(ref.slope_checks([{**row, "slope": -0.55}]))
    assert not _all(ref.slope_checks([{**row, "slope": -0.65}]))
    (undefined,) = ref.slope_checks([{**row, "undefined": "the horizon T = 50 is too short"}])
    assert undefined.passed is None and "too short" in undefined.detail and undefined.name == row["name"]
    beta = 0.99018
    assert _all(ref.mvue_rate_check(np.log(beta) * 1.05, beta, "[500, 1096]"))
    assert not _all(ref.mvue_rate_check(np.log(beta) * 1.2, beta, "[500, 1096]"))
    assert _verdicts(ref.mvue_rate_check(None, None, "")) == {"german-rate": None}


def test_figure4_checks_on_the_independent_numbers_and_off_them():
    checks = _named(ref.mvue_network_checks(FIG4_US, FIG4_GERMAN, published=True))
    assert _all(checks) and len(checks) == 7
    off = {
        "us-cost-of-privacy": {"us": {**FIG4_US, "cop": 12.18 * 1.2}},
        "us-total-error": {"us": {**FIG4_US, "te": 13.5 * 0.8}},
        "us-network-costlier": {"us": {**FIG4_US, "signal_cop": 13.0}},
        "us-noise-from-weights": {"us": {**FIG4_US, "weight_share": 0.99}},
        "us-privacy-dominates": {"us": {**FIG4_US, "cod": 12.5}},
        "german-noise-from-sensitivity": {"german": {**FIG4_GERMAN, "sensitivity_share": 0.5}},
        "german-privacy-dominates": {"german": {**FIG4_GERMAN, "cod": 7.0}},
    }
    for name, change in off.items():
        us, german = change.get("us", FIG4_US), change.get("german", FIG4_GERMAN)
        verdicts = _verdicts(ref.mvue_network_checks(us, german, published=True))
        assert verdicts.pop(name) is False, name
        assert all(verdicts.values()), (name, verdicts)  # only the check that was made false fails
    # off the paper's setting the values are undefined, the claims still decided
    verdicts = _verdicts(ref.mvue_network_checks(FIG4_US, FIG4_GERMAN, published=False))
    assert verdicts["us-cost-of-privacy"] is None and verdicts["us-total-error"] is None
    assert verdicts["us-network-costlier"] and verdicts["german-privacy-dominates"]
    # without a dataset its checks are undefined, under the same names
    verdicts = _verdicts(ref.mvue_network_checks(None, FIG4_GERMAN, published=True))
    assert set(verdicts) == {c.name for c in checks}
    assert all(v is None for n, v in verdicts.items() if n.startswith("us-"))


def test_eps_slope_checks_use_the_calibration_and_network_targets():
    good = {("us_power_grid", "paper", "OL-N"): (-1.0, 0.001),
            ("german_households", "paper", "OL-N"): (-2.0, 0.001),
            ("us_power_grid", "authors_code", "MVUE-S"): (-1.02, 0.001)}  # fmt: skip
    checks = _named(ref.eps_slope_checks(good))
    assert _all(checks)
    assert [c.name for c in checks] == [
        "slope-us-paper-ol-n",
        "slope-german-paper-ol-n",
        "slope-us-code-mvue-s",
    ]
    assert not _all(ref.eps_slope_checks({("us_power_grid", "paper", "OL-S"): (-1.0, 0.001)}))
    # the Monte Carlo allowance grows with the slope's standard error, and only with it
    assert not _all(ref.eps_slope_checks({("german_households", "authors_code", "MVUE-S"): (-0.9, 0.01)}))
    assert _all(ref.eps_slope_checks({("german_households", "authors_code", "MVUE-S"): (-0.9, 0.04)}))
    assert _verdicts(ref.eps_slope_checks({("us_power_grid", "paper", "OL-N"): None})) == {
        "slope-us-paper-ol-n": None
    }


def test_us_nonprivate_checks_values_only_on_the_paper_setting():
    assert _all(_named(ref.us_nonprivate_checks(ref.US_NONPRIVATE, published=True)))
    assert not _all(ref.us_nonprivate_checks({"OL-S": 1.48, "OL-N": 5.15, "MVUE": 4.0}, published=True))
    verdicts = _verdicts(ref.us_nonprivate_checks({"OL-S": 1.48, "OL-N": 5.15, "MVUE": 4.0}, published=False))
    assert verdicts == {"us-ol-s-without-dp": None, "us-ol-n-without-dp": None, "us-mvue-without-dp": None,
                        "us-ordering": False}  # fmt: skip
    assert set(_verdicts(ref.us_nonprivate_checks(None, published=True)).values()) == {None}


def test_us_figure7_checks_on_the_independent_numbers_and_off_them():
    cop = {
        "OL-N": np.array(ref.US_FIG7_COP["OL-N"]),
        "MVUE-N": np.array(ref.US_FIG7_COP["MVUE-N"]),
        # Signal DP ∝ 1/ε from the independent value at ε = 1/16
        "OL-S": ref.US_FIG7_SIGNAL_FIRST["OL-S"] / (16 * np.array(ref.FIG7_EPS)),
        "MVUE-S": ref.US_FIG7_SIGNAL_FIRST["MVUE-S"] / (16 * np.array(ref.FIG7_EPS)),
    }
    cod = {"OL-S": 1.48, "MVUE-S": 5.63}  # fmt: skip
    assert _all(_named(ref.us_figure7_checks(cop, cod, published=True)))
    assert not _all(ref.us_figure7_checks({**cop, "OL-N": cop["OL-N"] * 1.2}, cod, published=True))
    assert not _all(ref.us_figure7_checks({**cop, "OL-S": cop["OL-N"] / 500}, cod, published=True))
    assert not _all(ref.us_figure7_checks({**cop, "MVUE-S": cop["MVUE-S"] * 1.2}, cod, published=True))
    # off the paper's grid only the claims of §5.3 are decided
    verdicts = _verdicts(ref.us_figure7_checks(cop, cod, published=False))
    decided = {n for n, v in verdicts.items() if v is not None}
    assert decided == {"us-mvue-s-negligible", "us-ol-s-negligible", "us-network-factor"}
    assert not _verdicts(ref.us_figure7_checks({**cop, "OL-S": cop["OL-S"] * 20}, cod, published=False))[
        "us-ol-s-negligible"
    ]


def test_german_and_monotone_checks():
    assert _all(_named(ref.german_ol_checks({"OL-S": 0.3, "OL-N": 3.0})))
    assert not _all(ref.german_ol_checks({"OL-S": 0.6, "OL-N": 3.0}))
    assert not _all(ref.german_ol_checks({"OL-S": 0.3, "OL-N": 1.7}))
    assert set(_verdicts(ref.german_ol_checks(None)).values()) == {None}
    key = ("us_power_grid", "authors_code", "OL-N")
    assert _verdicts(ref.monotone_checks({key: True})) == {"decreasing-us-code-ol-n": True}
    assert _verdicts(ref.monotone_checks({key: False})) == {"decreasing-us-code-ol-n": False}
    assert _verdicts(ref.monotone_checks({key: None})) == {"decreasing-us-code-ol-n": None}


@pytest.mark.parametrize("text", ["spec", "prototype"])
def test_claims_never_cite_material_readers_lack(text: str):
    """The report shows every claim and detail: none may cite the reproduction spec."""
    checks = (
        ref.graph_checks({"us_power_grid": US, "german_households": None})
        + ref.mvue_network_checks(FIG4_US, None, published=True)
        + ref.us_nonprivate_checks(ref.US_NONPRIVATE, published=True)
        + ref.us_figure7_checks(None, None, published=True)
        + ref.german_ol_checks(None)
        + ref.eps_slope_checks({("us_power_grid", "paper", "OL-N"): (-1.0, 0.01)})
    )
    for check in checks:
        assert text not in (check.claim + check.detail).lower(), check
