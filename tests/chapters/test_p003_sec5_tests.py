"""Paper 003, the §5 tests (Chapter 3): the checks of §5's claims, and the item's cost."""

from __future__ import annotations

import pytest

from dpnet import reference
from dpnet.chapters import resolve
from dpnet.chapters.hypothesis_testing import p003_sec5_tests


def passed(checks: list) -> list[bool | None]:
    return [c.passed for c in checks]


def test_p003_sec5_tests_checks() -> None:
    claims = reference.clinical.section5_checks(2e-5, 3e-6, 0.7, {"simple": 0.04, "composite": 0.05}, 0.05)
    assert [c.name for c in claims] == ["central-p", "distributed-p", "simple-size", "composite-size"]
    assert all(passed(claims))
    fails = reference.clinical.section5_checks(2e-4, 3e-3, 0.4, {"simple": 0.33, "composite": 0.46}, 0.05)
    assert not any(passed(fails))


def test_p003_sec5_tests_cost_grows_with_the_budgets_the_centres_and_the_runs() -> None:
    values = dict(resolve("hypothesis-testing", {}))
    base = p003_sec5_tests.cost(values)
    assert base.peak == 0 and base.kept == 48.0 * p003_sec5_tests.NOISE_DRAWS * 8 * 5
    more_eps = p003_sec5_tests.cost({**values, "eps_values": [*values["eps_values"], 1000.0]})
    assert more_eps.seconds - base.seconds == pytest.approx(0.16)
    assert p003_sec5_tests.cost({**values, "n_centers": 10}).seconds > base.seconds
    assert p003_sec5_tests.cost({**values, "replications": 400}).seconds > base.seconds
