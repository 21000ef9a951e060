"""Chapter 7 (recommender-maxsense): its parameters and named streams, the identities behind E0 and E1
that hold by construction (unit tests here, not checks of the report), and its experiments on small
parameters.

Every identity test also shows that it can fail: the same comparison rejects a value changed slightly.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from dpnet import book
from dpnet import recommender as rc
from dpnet.chapters import recommender_maxsense as chapter
from dpnet.chapters import resolve
from dpnet.errors import DataError, ParameterError
from dpnet.params import Parameters
from dpnet.reference import recommender as ref
from dpnet.reference.catalogue import CATALOGUE
from dpnet.sweep import task_generators

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT / "book" / "notes" / "recommender_maxsense.md"
SOURCE = ROOT / "chapters" / "07_recommender_maxsense.md"


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("recommender-maxsense"))


def test_defaults_come_from_the_schema() -> None:
    assert defaults() == {"mode": "quick"}
    quick = resolve("recommender-maxsense", defaults())
    assert quick.seed == 20120612 and quick.theta == 1.0 and quick.ratings_per_user == [5, 10, 20]
    assert quick.n_items == [50, 100, 200] and quick.eps_values == [0.25, 1.0, 4.0, math.inf]
    assert (quick.trials, quick.pp_trials, quick.one_bit_trials, quick.exact_simulators) == (
        40,
        20,
        400,
        False,
    )
    full = resolve("recommender-maxsense", {"mode": "full"})
    assert full.n_items == [50, 100, 200, 400] and full.trials == 100 and full.exact_simulators
    assert full.movielens_eps == [1.0, 2.0, 4.0] and quick.movielens_eps == [1.0, 4.0]
    assert quick.movielens_items == 100


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("theta", 0.0, r"theta must be a real number > 0"),
        ("n_items", [100], r"n_items must be a list of at least 2"),
        ("eps_values", [1.0, 0.5], r"eps_values must be a strictly increasing list"),
        ("trials", 5, r"trials must be an integer ≥ 10"),
        ("movielens_items", 1000, r"movielens_items must be an integer ≥ 20 and ≤ 400"),
    ],
)
def test_bad_parameters_name_the_parameter(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("recommender-maxsense", {**defaults(), name: value})


def test_the_non_private_budget_is_accepted_in_every_spelling() -> None:
    for spelling in ("inf", "Infinity", math.inf):
        P = resolve("recommender-maxsense", {"eps_values": [0.25, 1.0, spelling]})
        assert P.eps_values == [0.25, 1.0, math.inf]


def test_named_streams_keep_the_integer_keys_of_the_published_runs() -> None:
    """Every stream that seeded the published runs draws as its integer key did: no draw changed.

    The keys are written out here, as the chapter's code passed them before its streams had names (an
    independent record: reading them from ``SCHEMA.streams`` would prove nothing), and the schema must
    declare exactly these.
    """
    P = resolve("recommender-maxsense", {})
    legacy = {
        "p002-e0": (0,),
        "p002-e2": (2,),
        "p002-e3": (11,),
        "p002-e4": (12,),
        "p002-e4/transition": (13,),
        "p002-e4/theta": (14,),
        "p002-e4/exact-fast": (15,),
        "p002-e4/exact-subset": (16,),
        "p002-e4/means-fast": (4, 0),
        "p002-e4/means-subset": (4, 1),
        "p002-e5/pairwise": (17,),
        "p002-e5/maxsense": (18,),
        "p002-e5/exponent": (19,),
        "p002-e5/symmetric": (20,),
        "p002-e6": (21,),
        "p002-e6/independent-bits": (22,),
        "p002-e6/per-user": (23,),
        "p002-e7/unconstrained": (7, 0),
        "p002-e7/average_bit": (7, 1),
        "p002-e7/point_query": (7, 2),
        "p002-e7/adaptive": (7, 3),
        "p002-e8": (24,),
    }
    assert dict(chapter.SCHEMA.streams) == legacy
    for name, key in legacy.items():
        (old,) = task_generators(P.seed, 1, [key])
        assert np.array_equal(P.rng(name).random(4), old.random(4)), name
    assert P.stream("p002-e4").child(2, 5).key == (12, 2, 5)
    assert P.stream("p002-e10/fit").key not in set(legacy.values())


# --------------------------------------------------------------------------------------------------
# Identities (they hold by construction): moved here from the report
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_randomized_response_likelihood_ratio_is_e_to_the_eps(eps: float) -> None:
    assert rc.likelihood_ratio(eps) == pytest.approx(math.exp(eps), rel=1e-12)
    assert rc.likelihood_ratio(eps) != pytest.approx(math.exp(1.01 * eps), rel=1e-12)


def test_randomized_response_never_flips_without_privacy() -> None:
    bits = np.random.default_rng(0).random(10_000) < 0.5
    assert np.array_equal(rc.rr_bits(bits, math.inf, np.random.default_rng(1)), bits)
    assert not np.array_equal(rc.rr_bits(bits, 3.0, np.random.default_rng(1)), bits)  # a finite ε flips some


def test_the_accounting_composes_to_the_requested_budget() -> None:
    """Pairwise-Preference and MaxSense release one bit at ε; Multi-MaxSense Q bits at ε/Q."""
    budgets = {
        "Pairwise-Preference": (rc.total_budget("pairwise", 1.0), 1.0),
        "MaxSense": (rc.total_budget("maxsense", 1.0), 1.0),
        "Multi-MaxSense, Q = 8 bits at ε/8": (rc.total_budget("multi-maxsense", 8.0, 8), 8.0),
    }
    assert all(passed for _, passed, _ in ref.accounting_checks(budgets))
    assert not ref.accounting_checks({"MaxSense": (1.01, 1.0)})[0][1]


def test_delta_min_of_the_two_models() -> None:
    """M-asym: one type with v = 0.5, so δ_min = 0.8 e^{−1/2}; M-sym: equal scores, δ_min = 0 exactly."""
    asym, sym = rc.delta_min(rc.m_asym(100, 10), 1.0), rc.delta_min(rc.m_sym(100, 10), 1.0)
    assert asym == pytest.approx(0.8 * math.exp(-0.5), rel=1e-12) and sym == 0.0
    assert all(passed for _, passed, _ in ref.delta_checks(asym, sym))
    assert not ref.delta_checks(asym + 2e-4, sym)[0][1]


def test_thm33_bound_is_linear_in_n() -> None:
    e1 = chapter.lower_bounds()
    assert abs(e1.slopes["Thm 3.3"] - 1) <= 0.01
    n = np.geomspace(1e3, 1e5, 10)
    assert rc.thm33_users(n, 0.5) == pytest.approx((n / 2 - 1) * math.log(2) / 0.5, rel=1e-12)
    assert rc.thm33_users(n, 0.5, "paper") == pytest.approx(n * math.log(2) / 0.5, rel=1e-12)


# --------------------------------------------------------------------------------------------------
# The chapter's records: names, notes and the catalogue
# --------------------------------------------------------------------------------------------------


def test_every_item_of_paper_002_is_covered_by_a_section_and_a_figure() -> None:
    source = SOURCE.read_text()
    keys = [item.key for item in CATALOGUE if item.chapter == "recommender-maxsense"]
    assert keys[-1] == "p002-e10" and len(keys) == 11
    for key in keys:
        assert f"({key})=" in source, key
        if key != "p002-e0":  # E0 shows a table only, its badges link to the report
            assert f"name: {key}-" in source and f"<report-{key}>" in source, key


#: The checks each experiment records (whatever the parameters: undefined ones too), by item.
CHECKS = {
    "p002-e0": "keep-0-1 keep-1 keep-3",
    "p002-e1": "slope-48 slope-410",
    "p002-e2": "thm43-bound thm43-one-over-n guess-8 guess-9 guess-10 sketch-doubling sketch-quadratic "
    "sketch-thm410 sketch-lemma31 lemma47-bound lemma47-zero",
    "p002-e3": "constant-50 constant-100 constant-200 eps-ratio",
    "p002-e4": "collapse slope-n slope-w slope-eps below above prediction means-fast means-subset means-gap "
    "exact-50-10 exact-50-5",
    "p002-e5": "full-w quarter-w exponent-nonprivate exponent-private-rated exponent-private-agree symmetric",
    "p002-e6": "gain-32 no-gain-2 prediction",
    "p002-e7": "formula-unconstrained formula-average-bit formula-point-query formula-adaptive adaptive-64 "
    "adaptive-128 adaptive-256 fano",
    "p002-e8": "growth-1000 growth-10000 growth-100000",
    "p002-e9": "gaussian-ratio",
    "p002-e10": "ratings users movies scale prediction thm51-scale",
}


def test_every_check_has_a_badge_and_every_badge_a_check() -> None:
    badges = set(re.findall(r"\{badge\}`(p002-e\d+/[a-z0-9-]+)`", SOURCE.read_text()))
    assert badges == {f"{item}/{name}" for item, names in CHECKS.items() for name in names.split()}


def test_deviations_point_to_anchored_notes_without_citing_the_spec() -> None:
    notes = NOTES.read_text()
    deviations = [
        *chapter.LowerBounds({}, {}, None, {}).deviations,  # type: ignore[arg-type]
        *chapter.PairwiseRich({}, None, {}, {}).deviations,  # type: ignore[arg-type]
        *chapter.ScarceMaxSense.deviations.fget(None),  # type: ignore[union-attr]
        *chapter.RichVsScarce.deviations.fget(None),  # type: ignore[union-attr]
        *chapter.MultiMaxSense.deviations.fget(None),  # type: ignore[union-attr]
        *chapter.MovieLens.deviations.fget(None),  # type: ignore[union-attr]
    ]
    assert {item for item, _, _ in deviations} == {f"p002-e{k}" for k in (1, 3, 4, 5, 6, 10)}
    for _, title, note in deviations:
        assert f"({note})=" in notes and "spec" not in title.lower()
    for text in (notes, SOURCE.read_text()):
        assert not re.search(r"\bspecs?\b|\bprototype\b", text, flags=re.I)
    labels = re.findall(
        r"\{ref\}`[^`]*<(note-rec-[a-z0-9-]+)>`|\{ref\}`(note-rec-[a-z0-9-]+)`", SOURCE.read_text()
    )
    for label in {a or b for a, b in labels}:
        assert f"({label})=" in notes, label


# --------------------------------------------------------------------------------------------------
# The experiments on small parameters
# --------------------------------------------------------------------------------------------------


def small(**overrides: object) -> Parameters:
    values = {
        "trials": 10,
        "pp_trials": 5,
        "one_bit_trials": 50,
        "n_items": [20, 30],
        "ratings_per_user": [4, 6],
        "eps_values": [1.0, "inf"],
        **overrides,
    }
    return resolve("recommender-maxsense", values)


def test_mechanism_checks_the_keep_rates_only() -> None:
    e0 = chapter.mechanism(small())
    checks = e0.checks["p002-e0"]
    assert [c.name for c in checks] == CHECKS["p002-e0"].split() and all(c.passed for c in checks)
    assert all(c.against == "reference" for c in checks) and e0.inf_flips == 0
    assert e0.table["ε"].tolist() == ["0.1", "1", "3", "∞"]


def test_information_names_every_check() -> None:
    e2 = chapter.information(small())
    assert [c.name for c in e2.checks["p002-e2"]] == CHECKS["p002-e2"].split()
    assert all(c.passed for c in e2.checks["p002-e2"])
    assert [c.name for c in chapter.lower_bounds().checks["p002-e1"]] == CHECKS["p002-e1"].split()
    assert e2.random_queries == 9 * chapter.E2_RANDOM_QUERIES


@pytest.fixture(scope="module")
def off_theta() -> dict[str, object]:
    """E3, E4, E4b, E6, E7 and E8 once, on small sizes at θ = 1/2 (the paper leaves θ free)."""
    P = small(theta=0.5)
    return {
        "e3": chapter.pairwise_rich(P),
        "e4": chapter.maxsense_scarce(P),
        "e4b": chapter.sensing_constant(P),
        "e6": chapter.multi_maxsense(P),
        "e7": chapter.one_bit(P),
        "e8": chapter.adaptive(P),
    }


def test_pairwise_rich_without_its_n_and_budgets_leaves_every_check_undefined(off_theta: dict) -> None:
    e3 = off_theta["e3"]
    checks = e3.checks["p002-e3"]
    assert [c.name for c in checks] == CHECKS["p002-e3"].split()
    assert all(c.passed is None for c in checks)  # N = 20, 30 and no ε = 0.25: every check undefined
    assert "eps_values" in checks[-1].detail and "n_items" in checks[0].detail and math.isnan(e3.eps_ratio)
    assert set(e3.table["sweep"]) == {"N", "eps", "support"}


def test_maxsense_off_theta_one_is_undecided(off_theta: dict) -> None:
    e4, e4b, e6 = off_theta["e4"], off_theta["e4b"], off_theta["e6"]
    checks = e4.checks["p002-e4"] + e4b.checks["p002-e4"]
    assert [c.name for c in checks] == CHECKS["p002-e4"].split() and all(c.passed is None for c in checks)
    assert [c.name for c in e6.checks["p002-e6"]] == CHECKS["p002-e6"].split()
    assert all(c.passed is None for c in e6.checks["p002-e6"])
    assert e4.reference_case in e4.unique and len(e4.unique) == len(e4.table)
    assert math.isnan(e4.slopes["eps_hat"])  # one ε ≤ 2 only
    e9 = chapter.distortion(e4)
    assert len(e9.table) == len(e4.unique) and e9.reference_row == e4.unique.index(e4.reference_case)
    assert [c.name for c in e9.checks["p002-e9"]] == CHECKS["p002-e9"].split()


def test_one_bit_and_adaptive_on_small_sizes(off_theta: dict) -> None:
    e7, e8 = off_theta["e7"], off_theta["e8"]
    assert list(e7.slopes) == list(rc.SCHEMES)
    assert [c.name for c in e7.checks["p002-e7"]] == CHECKS["p002-e7"].split()
    assert e7.order == pytest.approx(128 / math.log(128) ** 2)
    assert e8.n_w1 == (26, 50) and [c.name for c in e8.checks["p002-e8"]] == CHECKS["p002-e8"].split()
    assert e8.bounds_at(1000)[0] == rc.adaptive_lower_bound(1000, 1.0)


def test_rich_vs_scarce_names_its_checks() -> None:
    """E5's sizes are fixed (its sweeps are the chapter's longest): its check names are read from the code."""
    code = Path(chapter.__file__).read_text()
    for name in CHECKS["p002-e5"].split():
        assert f'"{name}"' in code, name


def test_summary_joins_the_records_in_the_chapter_s_order(off_theta: dict) -> None:
    e3, e4, e4b, e6, e7, e8 = (off_theta[k] for k in ("e3", "e4", "e4b", "e6", "e7", "e8"))
    e5 = chapter.RichVsScarce(
        (5, 100),
        (math.nan, 1e4),
        (1e5, 4e4),
        (1e5, 4e4),
        (100, 50),
        ((math.inf, "agree"),),
        np.array([[1e3, 4e3]]),
        None,
        1.0,
        {},
    )  # type: ignore[arg-type]
    metrics = chapter.summary(e3, e4, e4b, e5, e6, e7, e8).metrics()
    u90 = metrics["u90"]
    assert len(u90) == len(e3.unique) + len(e4.unique) + 5 + 2 + 2 + 2 + len(e6.unique) + 2
    assert u90[0]["algorithm"] == "pairwise" and u90[-1]["w"] == 1 and u90[-1]["theta"] == 0.5
    assert u90[len(e3.unique) - 1]["model"] == "M-sym" and u90[len(e3.unique)]["model"] == "M-asym"
    assert u90[-3]["algorithm"] == "multi-maxsense"
    assert [r["algorithm"] for r in metrics["fitted_exponents"]][:4] == ["pairwise", *["maxsense"] * 3]
    assert len(metrics["u90_predicted"]) == len(e4.unique) + 5 + 2 + len(e6.unique) + 2
    assert u90[len(e3.unique) + len(e4.unique) + 5 + 2 + 2]["sketch"] == "agree"  # E5's exponent fit


def test_movielens_experiment_on_small_sizes() -> None:
    P = small(movielens_items=40, movielens_eps=[2.0, 4.0], movielens_trials=5)
    try:
        e10 = chapter.movielens(P)
    except DataError as exc:
        pytest.skip(f"MovieLens 100k unavailable: {exc}")
    checks = {c.name: c for c in e10.checks["p002-e10"]}
    assert list(checks) == CHECKS["p002-e10"].split()
    assert all(
        checks[n].passed and checks[n].against == "reference" for n in ("ratings", "users", "movies", "scale")
    )
    assert e10.model.n_items == 40 and len(e10.table) == 2 and e10.fit_table.shape == (2, 4)
    metrics = e10.metrics()
    assert metrics["movielens_shape"] == {"ratings": 100_000, "users": 943, "movies": 1682}
    assert [r["eps"] for r in metrics["movielens_u90"]] == [2.0, 4.0]
