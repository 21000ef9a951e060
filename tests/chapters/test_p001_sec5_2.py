"""Paper 001, §5.2 (chapter distributed-estimation): what the smooth-sensitivity release guarantees on the
readings, its result and cost, and the checks of ``dpnet.reference.estimation.guarantee_checks``."""

from __future__ import annotations

import math

import pytest
from check_cases import verdicts as _verdicts
from small import small

from dpnet import reference as ref
from dpnet.chapters import distributed_estimation as chapter
from dpnet.chapters.distributed_estimation import p001_sec5_2
from dpnet.results import RECORDED

NAMES = ["us-paths", "us-fig7", "german-paths", "german-fig7", "guarantee"]


def test_guarantee_checks_pass_fail_and_stay_undecided_on_empty_sets():
    """A set passes when no reading fails at any of its ε; the headline fails when one set does; a dataset
    the run leaves out, or a set with no ε, is undecided, and the headline with no decided set too."""
    ok = {"paths": [(0.5, 0.0), (1.0, 0.0)], "fig7": [(1.0, 0.0)]}
    bad = {"paths": [(1.0, 0.35), (10.0, 1.0)], "fig7": [(8.0, 1.0)]}
    verdicts = _verdicts(ref.estimation.guarantee_checks({"us_power_grid": ok, "german_households": None}))
    assert list(verdicts) == NAMES
    assert verdicts == {"us-paths": True, "us-fig7": True, "german-paths": None, "german-fig7": None,
                        "guarantee": True}  # fmt: skip
    checks = ref.estimation.guarantee_checks({"us_power_grid": ok, "german_households": bad})
    assert _verdicts(checks)["guarantee"] is False and _verdicts(checks)["german-paths"] is False
    assert "up to 100.0% of the readings fail (ε = 10)" in checks[2].detail
    assert "german-paths" in checks[-1].detail
    empty = {"paths": [], "fig7": []}
    verdicts = _verdicts(ref.estimation.guarantee_checks({"us_power_grid": empty, "german_households": None}))
    assert set(verdicts.values()) == {None}


@pytest.fixture(scope="module")
def german_run():
    """§5.2 on the German households alone, 30 rounds (29 070 readings), ε ∈ {0.5, 1, 2}."""
    P = small("distributed-estimation")
    nets = chapter.networks(P)
    return {"P": P, "nets": nets, "p001-sec5-2": chapter.smooth_guarantee(P, nets)}


def test_smooth_guarantee_on_the_german_readings(german_run) -> None:
    """The budgets are the sample paths' (1, 10) and the grid's; the shares of readings ≤ 1 do not depend on
    ε; the text's calibration fails for every reading at ε = 10; the checks fail for the households and are
    undecided for the US grid; the table has one row per budget."""
    guar, P = german_run["p001-sec5-2"], german_run["P"]
    budgets = [0.5, 1.0, 2.0, 10.0]
    assert [eps for (name, eps) in guar.used_in] == budgets
    assert (
        guar.used_in["german_households", 1.0] == "3, 4, 7"
        and guar.used_in["german_households", 10.0] == "3, 5, 6"
    )
    infinite = {guar.share("german_households", e, "infinite_local") for e in budgets}
    assert len(infinite) == 1 and 0.02 < infinite.pop() < 0.1
    assert guar.share("german_households", 10.0, "exceeded") == 1.0
    assert guar.share("german_households", 10.0, "exceeded", "authors_code") < 0.2
    assert math.isnan(guar.share("us_power_grid", 1.0, "exceeded"))
    verdicts = _verdicts(guar.checks["p001-sec5-2"])
    assert list(verdicts) == [*NAMES[:-1], "domain", "guarantee"]
    assert verdicts["german-paths"] is False and verdicts["guarantee"] is False
    assert verdicts["domain"] is False  # at s = 1/2 the measured δ is 1 at every ε
    assert verdicts["us-paths"] is None and verdicts["us-fig7"] is None
    assert len(guar.table) == len(budgets) and list(guar.tables()) == ["p001-sec5-2"]
    assert guar.delta == P.delta and guar.paper_setting is False  # the grid is not the paper's
    assert all(hasattr(guar, name) for name in RECORDED) and guar.deviations == () and guar.metrics() == {}


def test_p001_sec5_2_cost_counts_the_readings_and_the_budgets() -> None:
    values = {"dataset": ["us_power_grid", "german_households"], "horizon": "paper",
              "eps_values": [0.0625, 1.0, 8.0]}  # fmt: skip
    cost = p001_sec5_2.cost(values)
    readings = 4941 * 100 + 969 * 1096
    cases = len({0.5, 1.0, 0.0625, 8.0}) + len({1.0, 10.0, 0.0625, 8.0})
    assert cost.seconds == pytest.approx(3e-7 * readings + 0.02 * 2 * cases, rel=1e-12)
    assert cost.peak == 8.0 * 969 * 1096 and cost.kept == 0.0


def test_domain_check_is_the_worst_case_over_the_domain():
    """With the domain measured, the headline needs it: a δ above 0.01 at a signal s ≤ 1 fails the check
    and the headline even when every reading passes; δ within 0.01 passes; no ε leaves it undecided."""
    ok = {"paths": [(0.5, 0.0)], "fig7": [(1.0, 0.0)]}
    for domain, expected in (([(0.5, 1.0), (1.0, 1.0)], False), ([(0.5, 0.001)], True), ([], None)):
        verdicts = _verdicts(ref.estimation.guarantee_checks({"us_power_grid": ok, "german_households": None},
                                                             domain))  # fmt: skip
        assert verdicts["domain"] is expected
        assert verdicts["guarantee"] is (True if expected is None else expected)
