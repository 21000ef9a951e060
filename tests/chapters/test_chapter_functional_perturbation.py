"""Chapter 8 as a whole (:mod:`dpnet.chapters.functional_perturbation`): its named streams, the agents'
problems, the summary, recording under the chapter's catalogue items, the chapter's cells on degenerate
grids, its footprint, and what every check of :mod:`dpnet.reference.funcpert` shares (names, sources,
NumPy scalars, the tolerances).

The checks of each item are tested beside the item, in ``tests/chapters/test_p004_e<N>.py``; the base
values there are those of the reproduction notes (``book/notes/functional_perturbation.md``): the closed
forms where a derivation gives one, and otherwise values of the order the book predicted, written out,
not read from the module.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from check_cases import well_formed_or_undefined as _wf
from small import params, small

from dpnet import reference as ref
from dpnet.chapters import functional_perturbation as chapter
from dpnet.chapters._items import item_modules
from dpnet.funcpert import logistic_problem, quadratic_problem
from dpnet.reference import funcpert
from dpnet.results import RECORDED

CHAPTER = "functional-perturbation"


def _item_tests():
    """The test modules of the chapter's items (``test_p004_e0`` …), which hold each item's check inputs."""
    return [importlib.import_module(p.stem) for p in sorted(Path(__file__).parent.glob("test_p004_*.py"))]


def _bases():
    """Every ``(function, base, names)`` of the items' tests, in item order."""
    return [p for module in _item_tests() for p in module.BASES]


# --------------------------------------------------------------------------------------------------
# the schema, the problems, the summary, recording
# --------------------------------------------------------------------------------------------------


def test_the_named_streams_draw_what_the_integer_keys_drew() -> None:
    """Every stream of the chapter is today's ``task_generators`` key: naming them changed no draw."""
    from dpnet.chapters.functional_perturbation import SCHEMA
    from dpnet.sweep import task_generators

    P = params(CHAPTER)
    old = {
        "p004-e1": (1,), "p004-e2": (2,), "p004-e5": (6,),
        **{f"p004-e6/{name}": (6, j) for j, name in enumerate(
            ("floor-short", "floor-long", "tuned", "impossibility", "floor-shifted"))},
        "p004-e7/functional": (7, 0), "p004-e7/messages": (7, 1),
    }  # fmt: skip
    for name, key in old.items():
        (rng,) = task_generators(P.seed, 1, [key])
        assert np.array_equal(P.rng(name).random(4), rng.random(4)), name
    for name, key, child in (("p004-e3", (3, 2, 5), (2, 5)), ("p004-e4", (4, 7), (7,)),
                             ("p004-e4/boundaries", (5, 1), (1,))):  # fmt: skip
        (rng,) = task_generators(P.seed, 1, [key])
        assert np.array_equal(P.stream(name).child(*child).rng().random(4), rng.random(4)), name
    assert set(SCHEMA.streams) == {*old, "p004-e3", "p004-e4", "p004-e4/boundaries"}


def test_the_problems_come_from_the_data_seed_alone() -> None:
    a = chapter.problems(small(CHAPTER))
    b = chapter.problems(small(CHAPTER, seed=1))
    c = chapter.problems(small(CHAPTER, data_seed=1))
    np.testing.assert_array_equal(a.quadratic.coefficients, b.quadratic.coefficients)
    np.testing.assert_array_equal(a.logistic.coefficients, b.logistic.coefficients)
    assert not np.array_equal(a.quadratic.coefficients, c.quadratic.coefficients)
    data = np.random.default_rng(0)
    expected = quadratic_problem(4, 8, data)
    np.testing.assert_array_equal(a.quadratic.data["theta"], expected.data["theta"])
    np.testing.assert_array_equal(a.logistic.data["labels"], logistic_problem(4, 10, 4, data).data["labels"])
    assert sorted(a.graph.edges) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]  # ring + chords 0–2, 1–3


def test_the_summary_holds_the_metrics_the_book_requires() -> None:
    """The keys the book's test asks chapter 8 for: error_vs_eps, fitted_slope, dgd_final_gap (E5),
    message_perturbation; the summary joins E3 with E4 and E6 with E7 in that order."""
    table = pd.DataFrame({"problem": ["quadratic"] * 2, "q": [2.0, 2.0], "eps": [1.0, 10.0],
                          "mean_error": [0.1, 0.01], "rms_error": [0.12, 0.012]})  # fmt: skip
    e3 = chapter.Tradeoff((2.0,), np.array([1.0, 10.0]), table, {2.0: -0.9}, 2.0, pd.DataFrame(), {})
    fake = type("Fake", (), {})
    e4, e6, e7 = fake(), fake(), fake()
    e4.error_rows, e4.slope = [{"problem": "logistic"}], -1.1
    e6.best_rows, e7.record_rows = [{"schedule": "a"}], [{"schedule": "b"}]
    metrics = chapter.summary(e3, e4, e6, e7).metrics()
    assert set(metrics) == {"error_vs_eps", "fitted_slope", "message_perturbation"}
    assert [r["problem"] for r in metrics["error_vs_eps"]] == ["quadratic", "quadratic", "logistic"]
    assert metrics["fitted_slope"] == [{"problem": "quadratic", "q": 2.0, "slope": -0.9},
                                       {"problem": "logistic", "q": 2.0, "slope": -1.1}]  # fmt: skip
    assert [r["schedule"] for r in metrics["message_perturbation"]] == ["a", "b"]


RESULTS = [chapter.ErrorRegion, chapter.Anatomy, chapter.Calibration, chapter.Tradeoff,
           chapter.CaseStudy, chapter.Distributed, chapter.MessagePerturbation, chapter.RecordLevel,
           chapter.Summary]  # fmt: skip


@pytest.mark.parametrize("result", RESULTS, ids=[r.__name__ for r in RESULTS])
def test_every_result_states_what_a_record_reads(result: type) -> None:
    """Each result the chapter records defines all five members of ``dpnet.results.Recordable`` itself."""
    members = {f.name for f in dataclasses.fields(result)} | set(dir(result))
    assert [name for name in RECORDED if name not in members] == []
    assert callable(result.metrics) and callable(result.tables)


def test_the_chapter_s_outcomes_record_under_its_catalogue_items(tmp_path: Path, monkeypatch) -> None:
    """Recording E0–E2 into the chapter's results accepts their item keys, names and figures' names."""
    import myst_nb

    from dpnet.chapters import start

    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: None)
    monkeypatch.setenv("DPNET_RESULTS_DIR", str(tmp_path))
    P, results = start(CHAPTER, {"mode": "quick"})
    setup = chapter.problems(P)
    for outcome, name in ((chapter.hypothesis_testing(P), "fp-error-region"),
                          (chapter.anatomy(P, setup), "fp-anatomy")):  # fmt: skip
        results.record(outcome)
        results.figure(outcome.figure(), name)
    assert set(results.reproduction) == {"p004-e0", "p004-e1"}
    assert results.deviations[0]["note"] == "note-fp-choices"
    assert (tmp_path / "figures" / "fp-anatomy.png").exists()


# --------------------------------------------------------------------------------------------------
# the chapter's cells on grids that leave a comparison undefined: no NaN in prose
# --------------------------------------------------------------------------------------------------

DEGENERATE = {"q": [2.0], "eps_values": [100_000.0, 1_000_000.0]}


def _chapter_cell(marker: str) -> str:
    """The source of the chapter's code cell that contains ``marker`` (cell options stripped)."""
    text = (Path(__file__).resolve().parents[2] / "chapters" / "08_functional_perturbation.md").read_text()
    cells = re.findall(r"```\{code-cell\}[^\n]*\n(.*?)\n```", text, flags=re.S)
    (cell,) = [c for c in cells if marker in c]
    return re.sub(r"\A(?:---\n.*?\n---\n|(?::[^\n]*\n)+)", "", cell, flags=re.S)


def _run_cell(marker: str, namespace: dict, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict:
    import myst_nb

    from dpnet.results import Results

    glued: dict[str, object] = {}
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display: glued.update({name: value}))
    monkeypatch.setenv("DPNET_RESULTS_DIR", str(tmp_path))
    exec(_chapter_cell(marker), {**namespace, "results": Results(CHAPTER, namespace["P"])})
    return glued


def test_p004_e3_a_grid_without_the_slope_window_shows_the_slopes_as_undefined(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With ``-p eps_values "[100000, 1000000]"`` the chapter used to write 'fitted slopes from nan to nan'.
    The E3 cell of the chapter, run on that grid, glues the reason instead, and the checks that need the
    window are recorded as undefined."""
    P = small(CHAPTER, **DEGENERATE)
    from dpnet import funcpert

    setup = chapter.problems(P)
    e3 = chapter.tradeoff(P, setup)
    assert all(math.isnan(s) for s in e3.slope_range)
    namespace = {"P": P, "e3": e3, "fp": funcpert, "quad": setup.quadratic, "chapter": chapter}
    glued = _run_cell('results.glue("slope_lo"', namespace, monkeypatch, tmp_path)
    assert glued["slope_lo"] == glued["slope_hi"] == "undefined (grid misses [10, 1000])"
    assert len(str(glued["slope_lo"]).split()) <= 5
    assert not [k for k, v in glued.items() if "nan" in str(v).lower()]
    verdicts = {c.name: c.passed for c in e3.checks["p004-e3"]}
    undecided = (
        "slope-range",
        "steeper-than-bound",
        "linear-regime",
        "denoising",
        "order-in-q",
        "saturation",
    )
    assert verdicts == {"falls-with-eps": True, **dict.fromkeys(undecided)}


def test_p004_e7_budgets_shared_by_no_experiment_leave_the_nominal_comparison_undefined(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """E7 compares the methods at the nominal ε that E3 and E6 share; with none shared, it says so."""
    P = small(CHAPTER, **DEGENERATE)
    table = pd.DataFrame({"record-level ε": [10.0, 100.0], "functional perturbation": [0.2, 0.02],
                          "message perturbation (best)": [0.4, 0.03]})  # fmt: skip
    sens = {"vq": 160.0, "loss": 65.0, "l2": 14.7, "gradient": 1.8}
    e7 = chapter.RecordLevel(
        10, {10: sens}, {"vq": 70.0, "l2": 14.7, "gradient": 1.8}, table, {}, 7.3, 7.3, 0.1, {}
    )
    glued = _run_cell(
        'results.glue("nominal_lo"', {"P": P, "e7": e7, "chapter": chapter}, monkeypatch, tmp_path
    )
    assert glued["nominal_lo"] == glued["nominal_hi"] == "not compared (no shared ε)"
    assert (glued["record_lo"], glued["record_hi"]) == ("1.5", "2.0")
    assert not [k for k, v in glued.items() if "nan" in str(v).lower()]


# --------------------------------------------------------------------------------------------------
# the footprint
# --------------------------------------------------------------------------------------------------


def test_the_footprint_adds_up_every_module_s_cost() -> None:
    """Every public module of the package is an item with a cost term; the footprint is 30 fixed seconds
    plus their seconds, and the largest of their peaks (none keeps anything)."""
    from dpnet.params import total

    names = [m.__name__.rsplit(".", 1)[1] for m in item_modules(chapter.__name__)]
    items = [f"p004_e{k}" for k in range(8)]
    assert names == [*items[:4], "p004_e3_truncation", *items[4:], "problems", "summary"]
    values = dict(params(CHAPTER))
    costs = [m.cost(values) for m in item_modules(chapter.__name__)]
    assert chapter.SCHEMA.footprint(values) == total(costs, seconds=30.0)
    assert all(c.kept == 0 for c in costs)


@pytest.mark.parametrize(
    ("mode", "seconds", "memory"), [("quick", 69.67176, 49_000_000), ("full", 201.72904, 196_000_000)]
)
def test_the_footprint_of_the_defaults(mode: str, seconds: float, memory: float) -> None:
    """The defaults' estimate: the impossibility demonstration holds the most (4900·n·runs bytes)."""
    need = chapter.SCHEMA.footprint(dict(params(CHAPTER, mode=mode)))
    assert need.seconds == pytest.approx(seconds, rel=1e-12) and need.memory == memory


# --------------------------------------------------------------------------------------------------
# what every check of dpnet.reference.funcpert shares
# --------------------------------------------------------------------------------------------------


def test_every_public_check_function_is_covered():
    tested = {p.values[0].__name__ for p in _bases()}
    public = {name for name in vars(funcpert) if name.endswith("_checks") and not name.startswith("_")}
    assert public == tested


def test_claims_say_what_they_compare_and_cite_no_document():
    """Each claim names its reference (the slides, a derivation, or a prediction of the book), and no
    claim cites a document readers do not have (a spec, a prototype, the spec's H1–H20)."""
    checks = [c for p in _bases() for c in p.values[0](**p.values[1])]
    names = [c.name for c in checks]
    # one name per check within an item; E3 and E4 each test the slides' "falls-with-eps"
    assert len(names) == 25 and len(set(names)) == 24 and names.count("falls-with-eps") == 2
    for check in checks:
        text = check.claim.lower()
        assert "spec" not in text and "prototype" not in text and not text.startswith("h"), check.claim
    sources = ("slides", "derivation", "book's prediction", "characteris", "property of a projection",
               "closed form", "computed centrally", "accuracy theorem", "against the exact",
               "the book's reading")  # fmt: skip
    assert [c.claim for c in checks if not any(s in c.claim for s in sources)] == []


def test_numpy_scalars_give_the_same_checks():
    def to_numpy(value):
        if isinstance(value, dict):
            return {k: to_numpy(v) for k, v in value.items()}
        return np.float64(value) if isinstance(value, float) else value

    for p in _bases():
        fn, base = p.values[0], p.values[1]
        checks = _wf(fn(**{k: to_numpy(v) for k, v in base.items()}))
        assert [(c.claim, bool(c.passed), c.detail, c.name, c.against) for c in checks] == fn(**base)


def test_the_tolerances_are_unchanged():
    """The numbers the checks and the identity tests use stay as they were when the chapter was rewritten."""
    assert ref.funcpert.GAMMA_VALUES == {(2.0, 1.0): 1.282550, (1.5, 0.75): 1.616284, (4.0, 2.0): 1.040348}
    assert (ref.funcpert.GAMMA_RTOL, ref.funcpert.OPTIMAL_P_TOLERANCE, ref.funcpert.ENERGY_TOLERANCE) == (
        1e-6,
        1e-3,
        0.03,
    )
    assert (ref.funcpert.WORST_CASE_MIN, ref.funcpert.GRAM_TOLERANCE) == (0.999, 1e-10)
    assert ref.funcpert.PROJECTION_TOLERANCES == {"feasible": 1e-7, "expansion": 1e-6, "variational": 1e-8}
    assert ref.funcpert.TRUNCATION_BIAS == {"quadratic": 1e-8, "logistic": 5e-4}
    assert (ref.funcpert.SPEARMAN_MAX, ref.funcpert.SLOPE_RANGE, ref.funcpert.SLOPE_RANGE_Q4) == (
        -0.95,
        (-1.15, -0.6),
        (-1.1, -0.9),
    )
    assert (ref.funcpert.SLOPE_STEEPER_BY, ref.funcpert.SATURATION_MIN) == (0.15, 0.2)
    assert (ref.funcpert.LINEAR_RATIO_RANGE, ref.funcpert.LINEAR_RATIO_DENOISED) == ((0.85, 1.15), 0.8)
    assert (ref.funcpert.CASE_ERROR_RANGE, ref.funcpert.CASE_RATIO_RANGE) == ((0.01, 0.08), (5.0, 15.0))
    assert (ref.funcpert.DGD_TOLERANCE, ref.funcpert.FLOOR_RATIO_RANGE, ref.funcpert.HUANG_FLOOR_MAX) == (
        1e-3,
        (2 / 3, 3 / 2),
        1e-3,
    )
    assert (
        ref.funcpert.AUDIT_ALPHA,
        ref.funcpert.IMPOSSIBILITY_ALPHA,
        ref.funcpert.TRUNCATION_GROWTH_MIN,
    ) == (
        1e-3,
        0.05,
        1.3,
    )
    assert (ref.funcpert.ACCOUNTANT_RTOL, ref.funcpert.CONVERGENT_GROWTH_MIN, ref.funcpert.LOG_RATIO_MIN) == (
        1e-6,
        50.0,
        5.0,
    )
    assert (ref.funcpert.FLOOR_TOLERANCE, ref.funcpert.RECORD_STABILITY) == (1e-3, 0.01)


# --------------------------------------------------------------------------------------------------
# the exercises that ask the reader to re-run and predict: the outcomes their solutions state
# --------------------------------------------------------------------------------------------------


def test_ex_fp_grid_at_very_large_budgets_the_error_falls_tenfold_and_the_window_checks_are_undecided():
    """``-p eps_values "[100000, 1000000]"`` (quick mode): the linear law holds, so the mean error falls by
    about ten from one budget to the next; the slope window is empty, so every check that needs it, ε = 10
    or ε = 0.1 is undecided; the error still falls with ε; E3 and E6 share no budget for E7's nominal
    comparison."""
    P = params(CHAPTER, mode="quick", **DEGENERATE)
    e3 = chapter.tradeoff(P, chapter.problems(P))
    error = e3.table.set_index("eps")["mean_error"]
    assert 5 <= error[1e5] / error[1e6] <= 20
    verdicts = {c.name: c.passed for c in e3.checks["p004-e3"]}
    assert verdicts.pop("falls-with-eps") is True and set(verdicts.values()) == {None}
    # "the projection moves few if any of the perturbed functions" at the largest ε
    assert e3.moved(2.0) <= 0.05
    from dpnet.chapters.functional_perturbation._common import MESSAGE_EPS

    assert not set(P.eps_values) & set(MESSAGE_EPS)


def test_ex_fp_q_from_q_4_to_8_the_error_at_eps_10_falls_as_the_linearised_law_says():
    """``-p q "[2.0, 4.0, 8.0]"`` (quick mode, the ε = 10 cells): from q = 4 to q = 8 the mean error falls
    by about the linearised law's factor (about 1/4), far more than ζ(8)/ζ(4) would suggest."""
    from dpnet import funcpert

    P = params(CHAPTER, mode="quick", q=[2.0, 4.0, 8.0], eps_values=[3.16, 10.0])
    setup = chapter.problems(P)
    e3 = chapter.tradeoff(P, setup)
    error = e3.table[e3.table["eps"] == 10.0].set_index("q")["mean_error"]
    law = funcpert.linearised_rms(setup.quadratic, 10.0, 8.0) / funcpert.linearised_rms(
        setup.quadratic, 10.0, 4.0
    )
    assert 0.15 <= law <= 0.3  # about the 1/4 of the solution's k = 2 term alone
    assert law / 1.5 <= error[8.0] / error[4.0] <= law * 1.5
    assert error[2.0] > error[4.0] > error[8.0]
