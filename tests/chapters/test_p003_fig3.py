"""Paper 003, Figure 3 (Chapter 3): the cohorts' ACTG arm facts, the Figure 3 checks, and their cost."""

from __future__ import annotations

import pandas as pd

from dpnet import reference
from dpnet import survival as sv
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import p003_fig3
from dpnet.params import Cost
from dpnet.reference import clinical


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


def test_p003_fig3_actg_data_checks_pass_on_the_data_set_and_fail_otherwise() -> None:
    assert all(
        passed(
            reference.clinical.actg_data_checks(
                reference.clinical.ACTG_ARM_SIZES, reference.clinical.ACTG_ARM_EVENTS
            )
        )
    )
    wrong = {**reference.clinical.ACTG_ARM_SIZES, "ddI": 560}
    assert passed(reference.clinical.actg_data_checks(wrong, reference.clinical.ACTG_ARM_EVENTS)) == [
        False,
        True,
    ]


def test_p003_fig3_checks_compare_with_the_published_split_only_there() -> None:
    pooled = {"coef": -0.528, "p": 4.9e-6}
    published = reference.clinical.figure3_checks(pooled, 0.9, alpha=0.05, published=True)
    names = ["pooled-coef", "pooled-p", "one-hospital-p", "one-hospital-not-significant"]
    assert [c.name for c in published] == names
    assert all(passed(published))
    # the five-way split's p = 0.17: still not significant, but not the published 0.90
    five_way = reference.clinical.figure3_checks(pooled, 0.17, alpha=0.05, published=True)
    assert passed(five_way) == [True, True, False, True]
    other = reference.clinical.figure3_checks(pooled, 0.17, alpha=0.05, published=False)
    assert [c.name for c in other] == ["pooled-coef", "pooled-p", "one-hospital-not-significant"]
    assert not reference.clinical.figure3_checks(pooled, 0.01, alpha=0.05, published=False)[-1].passed


def test_p003_fig3_the_ddi_subset_is_the_two_arms(actg: pd.DataFrame) -> None:
    """The ZDV ∪ ddI subset holds the two arms' patients: 532 + 561 = 1093."""
    ddi = sv.arm_cohort(actg, "ddI")
    sizes = clinical.ACTG_ARM_SIZES
    assert len(ddi) == sizes["ZDV"] + sizes["ddI"] == 1093
    assert int(ddi.x.sum()) == sizes["ddI"]


def test_p003_fig3_costs_nothing_beyond_the_chapter_s_fixed_seconds() -> None:
    assert p003_fig3.cost(dict(resolve("hypothesis-testing", {}))) == Cost()
