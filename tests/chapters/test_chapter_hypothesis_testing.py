"""Chapter 3 (hypothesis-testing) as a whole: the parameter schema and its streams, the check names of all
its items, what its results state for the record, and its footprint."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpnet import book, reference
from dpnet.chapters import hypothesis_testing as chapter
from dpnet.chapters import resolve
from dpnet.chapters._items import item_modules
from dpnet.errors import ParameterError
from dpnet.reference.catalogue import CATALOGUE
from dpnet.results import RECORDED
from dpnet.sweep import task_generators


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("hypothesis-testing"))


def test_defaults_are_the_papers_setting() -> None:
    quick = resolve("hypothesis-testing", defaults())
    assert defaults() == {"mode": "quick"}  # the parameters cell sets only the mode
    assert quick["replications"] == 200 and quick["likelihood"] == "paper"
    assert resolve("hypothesis-testing", {**defaults(), "mode": "full"})["replications"] >= 500
    assert (quick["n_centers"], quick["eps"], quick["alpha"], quick["rho"]) == (5, 1.0, 0.05, 1.5)
    assert quick["split"] == "round_robin" and quick["one_hospital_split"] == 10
    assert (
        quick["tmb_ties"] == "later_row_first" and quick["rho_cancer"] == 0.1 and quick["penalizer"] == 0.05
    )
    assert quick.is_paper()
    assert not resolve("hypothesis-testing", {"eps": 3.0}).is_paper("eps")


def test_named_streams_draw_what_the_published_runs_drew() -> None:
    P = resolve("hypothesis-testing", {})
    old = task_generators(P.seed, 5, [(300, k) for k in range(5)])
    for name, generator in zip(("split", "demo", "monte-carlo", "tests", "cancer"), old, strict=True):
        np.testing.assert_array_equal(P.rng(name).random(8), generator.random(8))


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
        ("tmb_ties", "stable", r"tmb_ties must be one of 'later_row_first'"),
    ],
)
def test_bad_parameters_name_the_parameter(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("hypothesis-testing", {**defaults(), name: value})


def test_check_names_are_unique_within_each_item() -> None:
    gaps, ranges = dict(reference.clinical.LAMBDA_GAP), {"as_published": (0, 300), "as_published_5": (0, 300)}
    oracle = {v: {**w, "AM belief se": 0.01} for v, w in reference.clinical.ORACLE_SUCCESS.items()}
    items = [
        reference.clinical.actg_data_checks(
            reference.clinical.ACTG_ARM_SIZES, reference.clinical.ACTG_ARM_EVENTS
        )
        + reference.clinical.figure3_checks({"coef": -0.5, "p": 1e-5}, 0.9, alpha=0.05, published=True),
        reference.clinical.figure4_checks(reference.clinical.FIG4_PAIRWISE),
        reference.clinical.lambda_gap_checks(gaps, ranges)
        + reference.clinical.success_checks(oracle, oracle, 200)
        + reference.complexity.table1_checks(*reference.complexity.ACTG_CODE_K_T),
        reference.clinical.tmb_checks(dict(reference.clinical.TMB_LAMBDA_GAP), -0.01776, published=True),
    ]
    for checks in items:
        names = [c.name for c in checks]
        assert all(names) and len(set(names)) == len(names), names


def test_one_module_per_item_each_with_its_cost() -> None:
    items = [item.key for item in CATALOGUE if item.chapter == "hypothesis-testing"]
    names = [m.__name__.rsplit(".", 1)[1] for m in item_modules(chapter.__name__)]
    assert sorted(names) == sorted(key.replace("-", "_") for key in items)
    assert all(callable(m.cost) for m in item_modules(chapter.__name__))


@pytest.mark.parametrize(
    "result",
    [
        chapter.Cohorts, chapter.Figure3, chapter.Figure4, chapter.Likelihoods, chapter.PrivateTests,
        chapter.ActgEstimation, chapter.CancerCohort, chapter.CancerEstimation,
    ],
)  # fmt: skip
def test_every_result_states_what_the_record_reads(result: type) -> None:
    """Each result class defines the five members :meth:`dpnet.results.Results.record` reads."""
    members = {f.name for f in dataclasses.fields(result)} | set(vars(result))
    assert set(RECORDED) <= members


def _old_footprint(values: dict) -> tuple[float, float]:
    """The chapter's footprint as one formula (before it was split into the items' costs)."""
    R, n, E = values["replications"], values["n_centers"], len(values["eps_values"])
    K = int(np.ceil(2 * np.log(2 / values["alpha"])))
    memory = 16.0 * K * n * (14 * R + 4 * 50_000) + 48.0 * 20_000 * K * n + 200 * 2**20
    seconds = (
        20
        + 0.16 * E
        + 2.0 * n
        + R * (3e-3 + 4.5e-7 * K * n**2)
        + K * n * (R * (1.34e-6 + 1.5e-6) + 50_000 * 1.16e-6)
    )
    return memory, seconds


@pytest.mark.parametrize(
    "values",
    [{"mode": "quick"}, {"mode": "full"}, {"replications": 10**5}, {"n_centers": 50, "replications": 5000},
     {"n_centers": 2, "alpha": 0.01, "eps_values": {"start": 0.1, "stop": 100.0, "num": 30_000}}],
)  # fmt: skip
def test_the_footprint_adds_up_the_items_costs(values: dict) -> None:
    """200 MiB and 20 s fixed; the largest peak is the ACTG runs' (with the oracle's), the tests' noise
    draws are kept; the seconds of the tests, the ACTG runs and the cancer cohort's runs add up."""
    resolved = dict(resolve("hypothesis-testing", {**values, "allow_large": True}))
    need = chapter.SCHEMA.footprint(resolved)
    memory, seconds = _old_footprint(resolved)
    assert need.memory == pytest.approx(memory, rel=1e-9) and need.seconds == pytest.approx(seconds, rel=1e-9)
