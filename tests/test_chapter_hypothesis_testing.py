"""Chapter 3 (hypothesis-testing): parameter schema and the reference checks of paper 003's clinical items."""

from __future__ import annotations

import pytest

from dpnet import book, reference
from dpnet.chapters import resolve
from dpnet.errors import ParameterError


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("hypothesis-testing"))


def test_defaults_are_the_papers_setting() -> None:
    quick = resolve("hypothesis-testing", defaults())
    assert quick["replications"] == 200 and quick["likelihood"] == "paper"
    assert resolve("hypothesis-testing", {**defaults(), "mode": "full"})["replications"] >= 500
    assert (quick["n_centers"], quick["eps"], quick["alpha"], quick["rho"]) == (5, 1.0, 0.05, 1.5)
    assert quick["split"] == "round_robin" and quick["one_hospital_split"] == 10


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("likelihood", "legacy", r"likelihood must be one of 'paper', 'as_published'"),
        ("split", "halves", r"split must be one of 'round_robin', 'random'"),
        ("n_centers", 1, r"n_centers must be an integer ≥ 2"),
        ("eps", 0.0, r"eps must be a real number > 0"),
        ("alpha", 0.5, r"alpha must be a real number"),
        ("penalizer", -0.1, r"penalizer must be a real number ≥ 0"),
        ("replications", 5, r"replications must be an integer ≥ 20"),
    ],
)
def test_bad_parameters_name_the_parameter(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("hypothesis-testing", {**defaults(), name: value})


def test_reference_checks_pass_on_the_published_numbers_and_fail_otherwise() -> None:
    assert all(ok for _, ok, _ in reference.actg_data_checks(
        dict(reference.ACTG_ARM_SIZES), dict(reference.ACTG_ARM_EVENTS), 1093))  # fmt: skip
    wrong = {**reference.ACTG_ARM_SIZES, "ddI": 560}
    assert not all(
        ok for _, ok, _ in reference.actg_data_checks(wrong, dict(reference.ACTG_ARM_EVENTS), 1093)
    )
    good = dict(reference.FIG4_PAIRWISE)
    assert all(ok for _, ok, _ in reference.figure4_checks(good))
    swapped = {**good, "ZDV+ddI": -0.5, "ddI": -0.704}
    results = reference.figure4_checks(swapped)
    assert not results[-1][1]  # the best arm is no longer ZDV+ddI
    assert all(ok for _, ok, _ in reference.figure3_checks({"coef": -0.528, "p": 4.9e-6}, 0.9))
    assert not reference.figure3_checks({"coef": -0.528, "p": 4.9e-6}, 0.17)[-1][1]
    gaps = dict(reference.LAMBDA_GAP)
    ranges = {"as_published": (271.27, 274.04), "as_published_5": (274.35, 276.97)}
    assert all(ok for _, ok, _ in reference.lambda_gap_checks(gaps, ranges))
    assert not all(ok for _, ok, _ in reference.lambda_gap_checks({**gaps, "paper": 9.64}, ranges))
    narrow = {**ranges, "as_published": (271.0, 273.0)}  # the spec's 273.17 outside every tie order
    assert not all(ok for _, ok, _ in reference.lambda_gap_checks(gaps, narrow))


def test_success_checks_use_the_oracles_binomial_error() -> None:
    oracle = {v: dict(w) for v, w in reference.ORACLE_SUCCESS.items()}
    measured = {v: {**w, "AM belief se": 0.01} for v, w in reference.ORACLE_SUCCESS.items()}
    assert all(ok for _, ok, _ in reference.success_checks(measured, oracle, 200))
    # a rate 0.15 away from the oracle's 0.61 is 4.3 binomial standard errors off at 200 runs
    off = {**measured, "paper": {**measured["paper"], "GM": 0.46}}
    checks = reference.success_checks(off, oracle, 200)
    assert [ok for claim, ok, _ in checks if "finite-T runs (paper): GM" in claim] == [False]
    # an exact rate of 1 at an oracle of 1 passes (no zero-width interval)
    assert all(ok for claim, ok, _ in checks if "as_published" in claim)


def test_tmb_checks_flag_a_wrong_group_split_and_coefficient() -> None:
    gaps = dict(reference.TMB_LAMBDA_GAP)
    assert all(ok for _, ok, _ in reference.tmb_checks(gaps, -0.01776, (166, 166, 1330)))
    assert not reference.tmb_checks(gaps, -0.01776, (167, 165, 1330))[0][1]
    assert not reference.tmb_checks(gaps, -0.0179, (166, 166, 1330))[1][1]  # 0.8 % off the spec's −0.01776
