"""Paper 003, Figure 2 (chapter power-tradeoff): Laplace-noised LLRs by Monte Carlo, the experiment's
cost, and the checks of ``dpnet.reference.dilemma.figure2_checks``."""

from __future__ import annotations

import numpy as np
import pytest
from check_cases import perturbed as _perturbed

from dpnet import reference
from dpnet.chapters import power_tradeoff as chapter
from dpnet.chapters import resolve
from dpnet.chapters.power_tradeoff import p003_fig2
from dpnet.results import RECORDED


def _fig2(paper: np.ndarray, as_published: np.ndarray) -> list[bool | None]:
    checks = reference.dilemma.figure2_checks(
        paper, as_published, reference.dilemma.FIG1_N, reference.dilemma.FIG1_P, published=True
    )
    return [c.passed for c in checks]


def test_figure2_checks_pass_on_the_published_table_and_fail_on_perturbed_ones() -> None:
    published = np.array(reference.dilemma.FIG2_LAPLACE_CRITICAL_BUDGET)
    paper = _perturbed(published, (1, 3), published[1, 3] - 0.2)  # off the printed heat map
    flat = (
        reference.dilemma.FIG1_N.index(reference.dilemma.FIG2_FLAT_CELL[0]),
        reference.dilemma.FIG1_P.index(reference.dilemma.FIG2_FLAT_CELL[1]),
    )
    # the flat-curve cell is exempt from the ±0.15 comparison (p = 0.9 stays the largest in its row)
    assert _fig2(paper, _perturbed(published, flat, 0.9)) == [True] * 5 + [False, True, True]
    assert _fig2(paper, published) == [True] * 8
    perturbed = {
        0: (paper, _perturbed(published, (2, 1), published[2, 1] + 0.17)),  # as-published off by 0.17
        1: (published, published),  # the paper-faithful model fits too: no deviation needed
        2: (_perturbed(paper, (0, 0), 1.0), published),  # a paper-faithful ε* of 1
        3: (paper, _perturbed(published, (0, 3), 1.0)),  # an as-published ε* of 1
        4: (_perturbed(paper, (2, 2), paper[2, 3] + 0.01), published),  # paper-faithful n = 75 peaks at 0.8
        5: (paper, _perturbed(published, (3, 2), published[3, 3] + 0.01)),  # as-published n = 100 at 0.8
        6: (_perturbed(paper, (3, 1), paper[0, 1] + 0.05), published),  # n = 100 above n = 25
        7: (published, _perturbed(paper, (1, 1), paper[1, 1] - 0.01)),  # more noise, a smaller ε*
    }
    for failing, tables in perturbed.items():
        passed = _fig2(*tables)
        assert not passed[failing], (failing, passed)
    # the deviation being needed is the book's finding about the printed figure, not a published claim
    against = {
        c.name: c.against
        for c in reference.dilemma.figure2_checks(
            paper, published, reference.dilemma.FIG1_N, reference.dilemma.FIG1_P, published=True
        )
    }
    assert {k for k, v in against.items() if v == "reference"} == {"deviation-needed", "noise-never-lowers"}
    single_p = reference.dilemma.figure2_checks(
        paper[:, :1], published[:, :1], reference.dilemma.FIG1_N, (0.6,), published=False
    )
    assert [c.name for c in single_p if c.passed is None] == [
        "largest-at-top-p",
        "largest-at-top-p-as-published",
    ]


def test_figure2_claims_over_no_cell_are_undecided() -> None:
    """Every claim about 'every cell' is undecided on an empty table, never passed."""
    empty = np.empty((0, 0))
    checks = {c.name: c for c in reference.dilemma.figure2_checks(empty, empty, (), (), published=False)}
    assert all(c.passed is None for c in checks.values()), {k: c.passed for k, c in checks.items()}
    assert (
        checks["noise-never-lowers"].against == "reference"
        and "no cell" in checks["noise-never-lowers"].detail
    )


def test_p003_fig2_off_the_paper_setting_is_recordable_and_needs_no_deviation() -> None:
    P = resolve(
        "power-tradeoff", {"n_values": [25, 50], "p_values": [0.7], "mc_samples": 200, "mc_repeats": 2}
    )
    lap = chapter.laplace(P)
    assert all(hasattr(lap, name) for name in RECORDED)
    assert not lap.paper_setting and lap.deviations == ()
    assert lap.star_runs["paper"].shape == (2, 2, 1) and list(lap.tables()) == ["p003-fig2"]


def test_p003_fig2_cost_counts_the_cells_and_one_cell_s_arrays() -> None:
    values = {"n_values": [25, 50], "p_values": [0.6, 0.7], "eps_grid": [0.0] * 100,
              "mc_samples": 5000, "mc_repeats": 3}  # fmt: skip
    cost = p003_fig2.cost(values)
    assert cost.seconds == pytest.approx(3 * 2 * 2 * (1.8e-7 * 100 * 5000 + 1e-7 * 5000), rel=1e-12)
    assert cost.peak == pytest.approx(8.0 * (4.5 * 100 * 5000 + 10 * 5000), rel=1e-12)
    assert cost.kept == pytest.approx(64.0 * 2 * 2 * 100 * 3, rel=1e-12)


def test_figure2_claims_where_no_cell_reaches_the_individual_power_are_undecided() -> None:
    """∞ against ∞ decides nothing: on all-undefined tables the comparisons are undecided (not 'equal in
    4' or passed), while 'below one' fails."""
    never = np.full((4, 4), np.nan)
    checks = {
        c.name: c
        for c in reference.dilemma.figure2_checks(
            never, never, reference.dilemma.FIG1_N, reference.dilemma.FIG1_P, published=False
        )
    }
    assert checks["below-one"].passed is False and checks["below-one-as-published"].passed is False
    for name in (
        "largest-at-top-p",
        "largest-at-top-p-as-published",
        "decreasing-in-n",
        "noise-never-lowers",
    ):
        assert checks[name].passed is None and "undefined" in checks[name].detail, name
    published = np.array(reference.dilemma.FIG2_LAPLACE_CRITICAL_BUDGET)
    one_never = _perturbed(_perturbed(published, (0, 0), np.nan), (0, 0), np.nan)
    partial = {
        c.name: c
        for c in reference.dilemma.figure2_checks(
            one_never, one_never, reference.dilemma.FIG1_N, reference.dilemma.FIG1_P, published=False
        )
    }
    lowers = partial["noise-never-lowers"]
    assert lowers.passed is True and "equal in 15" in lowers.detail and "undecided in 1" in lowers.detail
