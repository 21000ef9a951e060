"""Paper 003, Figure 14.3 (Chapter 3): the TMB checks, the groups under each tie rule, the chapter's cancer
cohort experiment, and the item's cost."""

from __future__ import annotations

import pandas as pd
import pytest

from dpnet import reference
from dpnet import survival as sv
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import cohorts
from dpnet.chapters.hypothesis_testing.p003_fig14_3 import cancer_cohort, cost
from dpnet.params import Cost
from dpnet.reference import clinical
from dpnet.survival.data import TMB_TIE_RULES


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


RULES = {"later_row_first": 8.273, "earlier_row_first": 8.112, "at_or_above_cutoff": 8.796}


def test_p003_fig14_3_tmb_checks_flag_a_wrong_coefficient_and_gap() -> None:
    gaps = dict(reference.clinical.TMB_LAMBDA_GAP)
    checks = reference.clinical.tmb_checks(gaps, -0.01776, -0.0119, RULES, published=True)
    names = ["raw-negative", "raw-coef", "gap-raw", "gap-top10", "top10-mle", "top10-mle-every-rule"]
    assert [c.name for c in checks] == names and all(passed(checks))
    # the paper prints only the sign: the coefficient's four digits are a reference, not its claim
    assert [c.against for c in checks[:2]] == ["paper", "reference"]
    off = reference.clinical.tmb_checks(gaps, -0.0179, -0.0119, RULES, published=True)
    assert passed(off)[:2] == [True, False]  # 0.8 % off −0.01776, still negative
    wide = reference.clinical.tmb_checks(gaps, -0.01776, 0.002, RULES, published=True)
    assert passed(wide)[0] is False  # an interval reaching above 0
    stable = {**gaps, "top10": 8.112}  # the earlier row first: not the reference group's gap
    assert passed(reference.clinical.tmb_checks(stable, -0.01776, -0.0119, RULES, published=True)) == [
        True, True, True, False, True, True,
    ]  # fmt: skip
    other = reference.clinical.tmb_checks(stable, -0.01776, -0.0119, RULES, published=False)
    assert [c.name for c in other] == [
        "raw-negative", "raw-coef", "gap-raw", "top10-mle", "top10-mle-every-rule",
    ]  # fmt: skip
    negative = reference.clinical.tmb_checks(
        {**gaps, "top10": -1.0}, -0.01776, -0.0119, {**RULES, "earlier_row_first": -1.0}, published=False
    )
    assert passed(negative)[-2:] == [False, False]


@pytest.mark.parametrize(
    ("ties", "sizes"),
    [("later_row_first", clinical.TMB_GROUP_SIZES), ("earlier_row_first", clinical.TMB_GROUP_SIZES),
     ("at_or_above_cutoff", (167, 166, 1329))],
)  # fmt: skip
def test_p003_fig14_3_tmb_group_sizes_follow_from_the_tie_rule(
    samstein: pd.DataFrame, ties: str, sizes: tuple
) -> None:
    """Figure 14.3's groups 166/166/1330 are ⌊N/10⌋, ⌊N/5⌋ − ⌊N/10⌋ and the rest under either row rule."""
    groups = sv.tmb_groups(samstein, ties=ties)
    assert tuple(groups.value_counts(sort=False)) == sizes
    n = len(samstein)
    if ties != "at_or_above_cutoff":
        assert sizes == (n // 10, n // 5 - n // 10, n - n // 5)


def test_p003_fig14_3_cancer_cohort_keeps_the_default_gap_and_tabulates_every_tie_rule() -> None:
    P = resolve("hypothesis-testing", {})
    data = cohorts(P)
    cancer = cancer_cohort(P, data)
    assert cancer.metrics()["tmb_lambda_gap_top10"] == 8.273016470823677  # to the last digit
    rules = cancer.tie_rules.set_index("rule")
    assert list(rules.index) == list(TMB_TIE_RULES)
    assert rules.loc["later_row_first", "Λ(log 0.15) − Λ(0)"] == pytest.approx(8.273, abs=5e-4)
    assert rules.loc["earlier_row_first", "Λ(log 0.15) − Λ(0)"] == pytest.approx(8.112, abs=5e-4)
    assert rules.loc["at_or_above_cutoff", "Λ(log 0.15) − Λ(0)"] == pytest.approx(8.796, abs=5e-4)
    assert rules["patients"].tolist() == [166, 166, 167]
    assert rules["top-20 % group"].tolist() == [332, 332, 333]
    assert rules["tied rows taken"].tolist() == ["1331", "1156", "1156, 1331"]
    names = [c.name for c in cancer.checks["p003-fig14-3"]]
    assert names == ["raw-negative", "raw-coef", "gap-raw", "gap-top10", "top10-mle", "top10-mle-every-rule"]
    assert all(c.passed for c in cancer.checks["p003-fig14-3"])
    # the facts the chapter glues: 1662 patients, 166 and 332 intended, 2 and 4 tied, 1 and 3 of them in
    assert cancer.ties == {
        "patients": 1662, "top10_size": 166, "top10_cut": pytest.approx(26.56), "top10_tied": 2,
        "top10_tied_in": 1, "top20_size": 332, "top20_cut": pytest.approx(14.7568, abs=1e-4), "top20_tied": 4,
        "top20_tied_in": 3,
    }  # fmt: skip
    assert cancer.reference_gap == reference.clinical.TMB_LAMBDA_GAP["top10"]
    other = cancer_cohort(resolve("hypothesis-testing", {"tmb_ties": "earlier_row_first"}), data)
    assert other.gap["top10"] == pytest.approx(8.112, abs=5e-4)
    assert "gap-top10" not in [c.name for c in other.checks["p003-fig14-3"]]


def test_p003_fig14_3_costs_nothing_beyond_the_chapter_s_fixed_seconds() -> None:
    assert cost(dict(resolve("hypothesis-testing", {}))) == Cost()
