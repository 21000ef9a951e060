"""Chapter 7 (recommender-maxsense) as a whole: its parameters and named streams, its footprint, the records
every item leaves (check names, badges, deviations and notes), the ranges of its reference module, and the
summary that joins its experiments.

The tests of each experiment, and of the reference checks it calls, are in ``test_p002_<item>.py``; they
and this module read the check names (:data:`small.CHECKS`) and the small sizes (:func:`small.small`) from
``small.py``.
"""

from __future__ import annotations

import importlib
import math
import re
from pathlib import Path

import numpy as np
import pytest
from small import CHECKS, small

from dpnet import book
from dpnet.chapters import recommender_maxsense as chapter
from dpnet.chapters import resolve
from dpnet.chapters._items import item_modules
from dpnet.errors import ParameterError
from dpnet.reference import recommender
from dpnet.reference.catalogue import CATALOGUE
from dpnet.sweep import task_generators

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "book" / "notes" / "recommender_maxsense.md"
SOURCE = ROOT / "chapters" / "07_recommender_maxsense.md"


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("recommender-maxsense"))


# --------------------------------------------------------------------------------------------------
# Parameters and streams
# --------------------------------------------------------------------------------------------------


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
# The footprint: the items' cost terms
# --------------------------------------------------------------------------------------------------


def test_the_footprint_adds_up_every_experiment() -> None:
    names = [m.__name__.rsplit(".", 1)[1] for m in item_modules(chapter.__name__)]
    assert names == [
        "fitted_exponents",
        *(f"p002_e{k}" for k in (0, 1, 10, 2, 3, 4)),
        "p002_e4_means",
        "p002_e4_theta",
        "p002_e5",
        "p002_e5_three",
        *(f"p002_e{k}" for k in (6, 7, 8, 9)),
    ]


@pytest.mark.parametrize(
    ("mode", "memory", "seconds"),
    [("quick", 301_920_000.0, 59.0829258991), ("full", 307_680_000.0, 133.952183766)],
)
def test_the_footprint_at_the_defaults(mode: str, memory: float, seconds: float) -> None:
    """300 MB plus the largest ``N × N`` matrix of Pairwise-Preference (N = 200 quick, 400 full); 32 s of
    kernel, closed forms, enumerations and figures plus every experiment's recoveries."""
    need = chapter.SCHEMA.footprint(dict(resolve("recommender-maxsense", {"mode": mode})))
    assert need.memory == pytest.approx(memory, rel=1e-9) and need.seconds == pytest.approx(seconds, rel=1e-9)


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


def test_every_check_is_cited_once_in_one_voice() -> None:
    """Every check is cited by a badge (a paper's claim) or a ``{holds}`` (the book's own voice), once."""
    cited = re.findall(r"\{(badge|holds)\}`(p002-e\d+/[a-z0-9-]+)`", SOURCE.read_text())
    targets = [target for _, target in cited]
    assert sorted(targets) == sorted({*targets}), "a check is cited twice"
    assert set(targets) == {f"{item}/{name}" for item, names in CHECKS.items() for name in names.split()}


def test_every_item_names_a_headline_check_it_records() -> None:
    """Each item of the chapter names its headline claim and the check that tests it, a check it records,
    cited by a badge (a paper's claim)."""
    badges = set(re.findall(r"\{badge\}`(p002-e\d+/[a-z0-9-]+)`", SOURCE.read_text()))
    for item in (i for i in CATALOGUE if i.chapter == "recommender-maxsense"):
        if item.key in NO_HEADLINE_CHECK:
            assert item.headline and not item.check, item.key
            continue
        assert item.headline and item.check in CHECKS[item.key].split(), item.key
        assert f"{item.key}/{item.check}" in badges, item.key


#: E9: Thm A.5's lower bound is a few users, four orders of magnitude below any U_90: no run can test it,
#: and the item names no headline check (``note-rec-a5``).
NO_HEADLINE_CHECK = {"p002-e9"}


def test_deviations_point_to_anchored_notes_without_citing_the_spec() -> None:
    notes = NOTES.read_text()
    deviations = [
        *chapter.LowerBounds({}, {}, None, None, None, {}).deviations,  # type: ignore[arg-type]
        *chapter.PairwiseRich({}, None, {}, {}).deviations,  # type: ignore[arg-type]
        *chapter.ScarceMaxSense.deviations.fget(None),  # type: ignore[union-attr]
        *chapter.RichVsScarce.deviations.fget(None),  # type: ignore[union-attr]
        *chapter.MultiMaxSense.deviations.fget(None),  # type: ignore[union-attr]
        *chapter.MovieLens.deviations.fget(None),  # type: ignore[union-attr]
        *chapter.ThreeClusters.deviations.fget(None),  # type: ignore[union-attr]
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
# The reference module (dpnet.reference.recommender): every check function is tested, its ranges
# --------------------------------------------------------------------------------------------------


def test_every_public_check_function_is_covered():
    """Each item's test module lists the check functions it feeds its pilot numbers (``BASES``)."""
    modules = sorted(p.stem for p in Path(__file__).parent.glob("test_p002_*.py"))
    tested = {
        p.values[0].__name__ for name in modules for p in getattr(importlib.import_module(name), "BASES", [])
    }
    public = {name for name in vars(recommender) if name.endswith("_checks") and not name.startswith("_")}
    assert public == tested


def test_the_ranges_are_the_books():
    assert (recommender.RR_KEEP_TOLERANCE, recommender.RR_RATIO_TOLERANCE) == (0.002, 1e-12)
    assert recommender.MEANS_CASE == {
        "n_items": 200,
        "w": 10,
        "b": (0.8, 0.2),
        "eps": 1.0,
        "n_users": 400_000,
        "runs": 5,
    }
    assert recommender.MEANS_TOLERANCE == {"fast": 0.005, "subset": 0.02, "subset_gap": 0.15}
    assert recommender.DELTA_MIN_ASYM == (0.4852, 1e-4)
    assert abs(0.8 * math.exp(-0.5) - recommender.DELTA_MIN_ASYM[0]) <= recommender.DELTA_MIN_ASYM[1]
    assert recommender.GUESS_QUERY_RANGE == (1.0, 1.1)
    assert (recommender.EXACT_ROUNDING, recommender.LDP_ROUNDING, recommender.THM51_FAILURE) == (
        1e-12,
        1e-9,
        0.1,
    )
    assert recommender.MAXSENSE_TRANSITION == {"low_users": 1e5, "low_max": 0.2, "high_users": 1.2e6,
                                               "high_min": 0.9, "prediction_factor": 1.4}  # fmt: skip
    assert recommender.COLLAPSE_RANGE == (8.0, 32.0)
    assert recommender.MAXSENSE_SLOPES == {"N": (1.8, 2.6), "w": (-1.5, -0.7), "eps_hat": (-2.5, -1.5)}
    assert (recommender.PP_CONSTANT_RANGE, recommender.PP_EPS_RATIO_RANGE) == ((10.0, 40.0), (8.0, 25.0))
    assert (recommender.SYMMETRIC_USERS, recommender.SYMMETRIC_MAX) == (2e6, 0.1)
    assert (recommender.PP_EXPONENT_NONPRIVATE, recommender.PP_EXPONENT_PRIVATE_MIN) == ((1.5, 2.5), 2.8)
    assert (recommender.MULTI_GAIN_MIN, recommender.MULTI_NO_GAIN, recommender.MULTI_PREDICTION) == (
        4.0,
        0.9,
        (0.7, 1.4),
    )
    assert (recommender.ONE_BIT_N, recommender.ONE_BIT_TOLERANCE, recommender.ONE_BIT_ADAPTIVE_MAX) == (
        128,
        0.15,
        0.5,
    )


# --------------------------------------------------------------------------------------------------
# The summary (fitted_exponents): the U_90 and exponents of every experiment, in the chapter's order
# --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def off_theta() -> dict[str, object]:
    """E3, E4, E4b, E6, E7 and E8 once, on small sizes at θ = 1/2 (the paper leaves θ free)."""
    P = small("recommender-maxsense", theta=0.5)
    return {
        "e3": chapter.pairwise_rich(P),
        "e4": chapter.maxsense_scarce(P),
        "e4b": chapter.sensing_constant(P),
        "e6": chapter.multi_maxsense(P),
        "e7": chapter.one_bit(P),
        "e8": chapter.adaptive(P),
    }


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
    exact = len(e6.exact)
    assert exact == 2  # quick mode: ε = 32 per user, Q = 1 and 32
    assert len(u90) == len(e3.unique) + len(e4.unique) + 5 + 2 + 2 + 2 + len(e6.unique) + 2 + exact
    assert u90[0]["algorithm"] == "pairwise" and u90[-1 - exact]["w"] == 1 and u90[-1 - exact]["theta"] == 0.5
    assert u90[len(e3.unique) - 1]["model"] == "M-sym" and u90[len(e3.unique)]["model"] == "M-asym"
    assert u90[-3 - exact]["algorithm"] == "multi-maxsense"
    assert all(r["simulator"] == "subset" and r["eps"] == 32.0 for r in u90[-exact:])
    assert [r["algorithm"] for r in metrics["fitted_exponents"]][:4] == ["pairwise", *["maxsense"] * 3]
    assert len(metrics["u90_predicted"]) == len(e4.unique) + 5 + 2 + len(e6.unique) + 2
    assert u90[len(e3.unique) + len(e4.unique) + 5 + 2 + 2]["sketch"] == "agree"  # E5's exponent fit
