"""Paper 003, Figure 4 (Chapter 3): the pairwise log hazard ratios' checks, and the item's cost."""

from __future__ import annotations

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import p003_fig4
from dpnet.params import Cost


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


def test_p003_fig4_checks_pass_on_the_reference_fit_and_find_another_best_arm() -> None:
    good = dict(reference.clinical.FIG4_PAIRWISE)
    assert all(passed(reference.clinical.figure4_checks(good)))
    swapped = {**good, "ZDV+ddI": -0.5, "ddI": -0.704}
    checks = reference.clinical.figure4_checks(swapped)
    assert checks[-1].name == "best-arm" and not checks[-1].passed  # the best arm is no longer ZDV+ddI


def test_p003_fig4_costs_nothing_beyond_the_chapter_s_fixed_seconds() -> None:
    assert p003_fig4.cost(dict(resolve("hypothesis-testing", {}))) == Cost()


def test_p003_fig4_interval_check_is_undecided_without_treatments() -> None:
    """Every treatment's interval below 0: passes, fails with one interval crossing 0, and is undecided
    (not passed) over an empty set of treatments."""
    check = reference.clinical.figure4_interval_check
    assert check({"ZDV+ddI": -0.46, "ddI": -0.30}).passed is True
    assert check({"ZDV+ddI": -0.46, "ddI": 0.05}).passed is False
    empty = check({})
    assert empty.passed is None and empty.name == "below-zero"
