"""Chapter 4 (treatment-identification) as a whole: its parameters, named streams and footprint."""

from __future__ import annotations

import numpy as np
import pytest

from dpnet import book, reference
from dpnet.chapters import resolve, schema
from dpnet.chapters import treatment_identification as chapter
from dpnet.errors import ParameterError
from dpnet.params import Cost
from dpnet.sweep import task_generators


def defaults() -> dict:
    return book.read_defaults(book.get_chapter("treatment-identification"))


def test_defaults_are_the_papers_setting() -> None:
    quick = resolve("treatment-identification", defaults())
    assert (quick["n_centers"], quick["eps"], quick["alpha"], quick["threshold"]) == (5, 1.0, 0.05, 0.25)
    assert (
        quick["fig6_n_values"] == [10, 15, 20]
        and quick["fig6_eps"][0] == 0.1
        and quick["fig6_eps"][-1] == 1.6
    )
    assert np.allclose(np.diff(quick["fig6_eps"]), 0.25)  # the notebook's arange(0.1, 1.75, 0.25)
    assert quick["runtime_n_values"] == [6, 12, 24, 48, 96] and quick["runtime_rows"] == [4096, 8192, 40960]
    full = resolve("treatment-identification", {**defaults(), "mode": "full"})
    assert full["replications"] >= 1000 and full["runtime_repeats"] >= 3


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("threshold", 0.7, r"threshold must be a real number in the open interval \(0, 0.5\)"),
        ("fig6_eps", [0.5, 0.1], r"fig6_eps must be a strictly increasing list"),
        ("runtime_cohorts", ["hiv"], r"runtime_cohorts must be a list of at least 1 distinct values"),
        ("runtime_rows", [50], r"runtime_rows must be"),
        ("learning_rate", 0.0, r"learning_rate must be a real number > 0"),
    ],
)
def test_bad_parameters_name_the_parameter(name: str, value: object, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        resolve("treatment-identification", {**defaults(), name: value})


def test_runtime_cohorts_must_fill_every_centre() -> None:
    with pytest.raises(ParameterError, match=r"every runtime_rows value must be at least the largest"):
        resolve(
            "treatment-identification",
            {**defaults(), "runtime_rows": [100, 4096], "runtime_n_values": [6, 200]},
        )


def test_named_streams_are_the_published_runs_generators() -> None:
    """Naming the streams changed no draw: each is the generator the published runs used."""
    P = resolve("treatment-identification", {})
    old = task_generators(P.seed, 6, [(400, k) for k in range(6)])
    names = ["split", "p003-fig5/demo", "p003-fig5/mc", "p003-fig5/as-published-demo",
             "p003-fig5/as-published-mc", "best-arm-curve"]  # fmt: skip
    for name, rng in zip(names, old, strict=True):
        np.testing.assert_array_equal(P.rng(name).random(5), rng.random(5))
    fig6 = task_generators(P.seed, 1, [(600, 1, 15, 3)])[0]
    np.testing.assert_array_equal(P.stream("p003-fig6").child(1, 15, 3).rng().random(5), fig6.random(5))
    timing = task_generators(P.seed, 1, [(700, 8192)])[0]
    np.testing.assert_array_equal(P.stream("p003-fig14-2").child(8192).rng().random(5), timing.random(5))


def test_defaults_are_the_papers_setting_and_other_values_are_not() -> None:
    P = resolve("treatment-identification", {})
    assert P.is_paper()  # every parameter the paper (or its notebook) fixes has its value
    assert P.fig6_eps == list(reference.identification.FIG6_EPS) and P.runtime_rows == list(
        reference.identification.RUNTIME_ROWS
    )
    assert not resolve("treatment-identification", {"eps": 10.0}).is_paper("eps")
    assert not resolve("treatment-identification", {"fig6_eps": [0.1, 0.35]}).is_paper("fig6_eps")


def test_footprint_adds_up_the_items_costs() -> None:
    """30 s fixed plus every item's seconds; the memory is the largest item peak (nothing is kept). At the
    quick defaults the largest peak is that of the neighbours of the four-arm table's entries."""
    values = dict(resolve("treatment-identification", defaults()))
    modules = (chapter.p003_fig5, chapter.p003_fig6, chapter.p003_fig14_2, chapter.ti_arm_sensitivity,
               chapter.ti_best_arm_probability)  # fmt: skip
    costs = [m.cost(values) for m in modules]
    assert all(isinstance(c, Cost) and c.kept == 0.0 for c in costs)
    need = schema("treatment-identification").footprint(values)
    assert need.seconds == pytest.approx(30.0 + sum(c.seconds for c in costs), rel=1e-12)
    assert need.memory == max(c.peak for c in costs) == pytest.approx(3 * 8.0 * 201 * (1093 / 5) ** 2 / 4)
    assert need.seconds == pytest.approx(88.88400868, rel=1e-9)  # the calibrated model


def test_every_item_names_its_headline_and_a_check_that_tests_it() -> None:
    """Each catalogue item of the chapter names the paper's claim it exists for and the check, under the
    paper's mathematics, that the reference module builds for it."""
    from dpnet.reference.catalogue import CATALOGUE

    ident = reference.identification
    built = {
        "p003-fig5": [c.name for c in ident.figure5_checks({"GM": 0.9}, 1.0, 10)],
        "p003-fig6": [c.name for c in ident.figure6_checks({}, {})],
        "p003-fig14-2": [c.name for c in ident.runtime_checks({}, {}, published_speedups={})],
    }
    items = {item.key: item for item in CATALOGUE if item.chapter == "treatment-identification"}
    assert set(items) == set(built)
    for key, item in items.items():
        assert item.headline and item.check in built[key], key
