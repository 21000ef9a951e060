"""Paper 003, the §5 tests (Chapter 3): the checks of §5's claims, and the item's cost."""

from __future__ import annotations

import pytest

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import p003_sec5_tests


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


def test_p003_sec5_tests_checks() -> None:
    claims = reference.clinical.section5_checks(2e-5, 3e-6, 0.7, 4e-6, 1000)
    assert [c.name for c in claims] == ["central-p", "distributed-p"]
    assert all(passed(claims))
    fails = reference.clinical.section5_checks(2e-4, 2.7e-3, 0.4, 1e-6, 1000)
    assert not any(passed(fails))  # judged on the limit's median, not on the runs' (1e−6 here)


def test_p003_sec5_tests_record_their_claims_and_prop_4_6s_sizes(actg: object) -> None:
    """One run of the tests records §5's checks under its item and the sizes under Prop 4.6's, with the
    renamed claim-rate column (no raw ``<`` in a table heading)."""
    from dpnet.chapters.hypothesis_testing import cohorts, likelihoods, private_tests

    P = resolve("hypothesis-testing", {"replications": 20, "eps_values": [1.0, 10.0]})
    data = cohorts(P)
    tests = private_tests(P, data, likelihoods(P, data))
    assert {k: [c.name for c in v] for k, v in tests.checks.items()} == {
        "p003-sec5-tests": ["central-p", "distributed-p"],
        "p003-prop4-6": ["simple-size", "composite-size", "composite-size-one-sided"],
    }  # fmt: skip
    assert not any("<" in column for column in tests.table.columns)
    simple = tests.row("simple")
    # the threshold is negative: under the null X is centred at −θ₁²I, far below 0
    assert simple["ϱ_d (paper)"] == pytest.approx(-13.82, abs=0.01)
    # exact: 0.3271 and 0.8392, as an independent integration gives; the draws within their error
    assert simple["size"] == pytest.approx(0.3271, abs=1e-4) and simple["power"] == pytest.approx(
        0.8392, abs=1e-4
    )
    assert simple["size, Monte Carlo"] == pytest.approx(simple["size"], abs=0.01)
    # the risk-set law, which expands nothing, gives nearly the normal laws' size and power here
    assert simple["size, risk sets fixed"] == pytest.approx(simple["size"], abs=0.01)
    assert simple["power, risk sets fixed"] == pytest.approx(simple["power"], abs=0.02)
    composite = tests.row("composite")
    assert composite["size"] == pytest.approx(0.4616, abs=1e-3)
    # the limit's medians are the noiseless statistic's p-values: the notebook's and twice it
    assert composite["p (notebook) without noise"] == pytest.approx(0.00136, abs=1e-5)
    assert composite["p (rule) without noise"] == pytest.approx(2 * composite["p (notebook) without noise"])
    assert composite["p (rule) without noise"] > reference.clinical.CLAIM_DISTRIBUTED_P
    # §5's one-sided alternative: every centre's estimate is negative, a lower threshold, a larger size
    assert composite["non-private X, one-sided"] == composite["non-private X"]
    assert (
        composite["ϱ_d, one-sided"] < composite["ϱ_d (paper)"]
        and composite["size, one-sided"] > composite["size"]
    )
    assert set(tests.tables()) == {"ht-test-size-power"}  # the rows are shown (and written) by the chapter


def test_p003_sec5_tests_cost_grows_with_the_budgets_the_centres_and_the_runs() -> None:
    values = dict(resolve("hypothesis-testing", {}))
    base = p003_sec5_tests.cost(values)
    assert base.peak == 0 and base.kept == 48.0 * p003_sec5_tests.NOISE_DRAWS * 8 * 5
    more_eps = p003_sec5_tests.cost({**values, "eps_values": [*values["eps_values"], 1000.0]})
    assert more_eps.seconds - base.seconds == pytest.approx(p003_sec5_tests._EPS_SECONDS)
    assert p003_sec5_tests.cost({**values, "n_centers": 10}).seconds > base.seconds
    assert p003_sec5_tests.cost({**values, "replications": 400}).seconds > base.seconds
