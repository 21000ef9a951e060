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
    clinical = reference.clinical
    gaps, ranges = dict(clinical.LAMBDA_GAP), {"as_published": (0, 300), "as_published_5": (0, 300)}
    oracle = {v: {"GM": 0.6, "AM belief": 0.5, "AM belief se": 0.01} for v in ("paper", "as_published")}
    keys = ("GM", "AM", "two-threshold", "GM inside", "AM covers", "two-threshold exact")
    rates = {v: dict.fromkeys(keys, 0.5) for v in ("paper", "as_published")}
    rules = {"later_row_first": 8.3, "earlier_row_first": 8.1}
    items = [
        clinical.actg_data_checks(clinical.ACTG_ARM_SIZES, clinical.ACTG_ARM_EVENTS)
        + clinical.figure3_checks({"coef": -0.5, "p": 1e-5}, 0.9, alpha=0.05, published=True)
        + clinical.figure3_split_checks(1e-5, [0.1, 0.2], alpha=0.05)
        + [clinical.figure3_random_split_check(1e-5, [0.1, 0.01], alpha=0.05)],
        [*clinical.figure4_checks(clinical.FIG4_PAIRWISE), clinical.figure4_interval_check({"ddI": -0.3})],
        clinical.lambda_gap_checks(gaps, ranges, {"as_published": 273.17, "as_published_5": 276.2})
        + clinical.success_checks(oracle, oracle, 200)
        + reference.complexity.table1_checks(*reference.complexity.ACTG_CODE_K_T)
        + clinical.recovery_checks(
            rates, rates, alpha=0.05, n_reps=200, cor44={"paper": True, "as_published": False}
        )
        + clinical.two_threshold_checks({"inside": 0.5, "covers": 0.5}, alpha=0.05, pi=0.5, n_reps=200),
        clinical.section5_checks(1e-5, 1e-6, 0.5, 1e-6, 200),
        clinical.prop46_checks({"simple": 0.1, "composite": 0.1, "composite one-sided": 0.1}, 0.05)
        + clinical.sensitivity_checks(
            {k: [1.0] for k in ("remove", "add", "event", "time", "modify", "treatment")},
            1.4,
            worst=2.0,
            worst_patients=10,
            eps_worst=0.7,
            eps=1.0,
        ),
        clinical.tmb_checks(dict(clinical.TMB_LAMBDA_GAP), -0.01776, -0.01, rules, published=True),
        [clinical.tmb_mle_check(-1.0), clinical.tmb_chance_check(0.5, 1000)],
    ]
    for checks in items:
        names = [c.name for c in checks]
        assert all(names) and len(set(names)) == len(names), names


def test_every_item_names_its_headline_and_a_check_the_chapter_makes() -> None:
    """Each item of the chapter states its headline claim, and its headline check is one the reference
    module builds for it (by name)."""
    built = {
        "p003-fig3": {"one-hospital-random-split"}, "p003-fig4": {"best-arm"},
        "p003-fig14-1a-b": {"recovers-theta-star"}, "p003-sec5-tests": {"distributed-p"},
        "p003-prop4-6": {"simple-size"}, "p003-fig14-3": {"raw-negative"}, "p003-fig14-4": {"raw-mle"},
        "p003-fig14-5": {"raw-mle"},
    }  # fmt: skip
    items = {item.key: item for item in CATALOGUE if item.chapter == "hypothesis-testing"}
    assert set(items) == set(built)
    for key, item in items.items():
        assert item.headline.endswith(".") and len(item.headline) > 40, key
        assert item.check in built[key], key


def test_one_module_per_item_each_with_its_cost() -> None:
    items = [item.key for item in CATALOGUE if item.chapter == "hypothesis-testing"]
    names = [m.__name__.rsplit(".", 1)[1] for m in item_modules(chapter.__name__)]
    assert sorted(names) == sorted(key.replace("-", "_") for key in items)
    assert all(callable(m.cost) for m in item_modules(chapter.__name__))


@pytest.mark.parametrize(
    "result",
    [
        chapter.Cohorts, chapter.Figure3, chapter.Figure4, chapter.Likelihoods, chapter.PrivateTests,
        chapter.ActgEstimation, chapter.CancerCohort, chapter.CancerEstimation, chapter.Sensitivity,
    ],
)  # fmt: skip
def test_every_result_states_what_the_record_reads(result: type) -> None:
    """Each result class defines the five members :meth:`dpnet.results.Results.record` reads."""
    members = {f.name for f in dataclasses.fields(result)} | set(vars(result))
    assert set(RECORDED) <= members


def _old_footprint(values: dict) -> tuple[float, float]:
    """The chapter's footprint as one formula (before it was split into the items' costs), with Prop 4.6's
    sensitivity added since."""
    R, n, E = values["replications"], values["n_centers"], len(values["eps_values"])
    K = int(np.ceil(2 * np.log(2 / values["alpha"])))
    memory = 16.0 * K * n * (14 * R + 4 * 50_000) + 48.0 * 20_000 * K * n + 200 * 2**20
    seconds = (
        20
        + 0.16 * E
        + 2.0 * n
        + R * (3e-3 + 4.5e-7 * K * n**2)
        + K * n * (R * (1.34e-6 + 1.5e-6) + 50_000 * 1.16e-6)
        + 0.3 * n  # Prop 4.6's sensitivity, every kind of neighbour: three tenths of a second per centre
        + 1e-4 * n * 400  # Figure 3's headline: the Wald tests of 400 random splits
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
