"""Shared helpers of the tests of published-outcome checks (``dpnet.reference`` modules).

A check is a :class:`dpnet.results.Check`, named where it is built. The tests feed a check function a base
of inputs on which every claim passes, then move one input just inside and just outside its bound
(:func:`case`) and assert that exactly one claim flips. The standard parametrized tests of an item's test
module call :func:`assert_all_pass`, :func:`assert_flips_alone` and :func:`assert_nan_fails` (or their
``_by_name`` forms, for check functions whose checks may be undefined) in one line each.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import numpy as np
import pytest

from dpnet.results import NAME, Check


def well_formed(checks: Sequence[Check], flag_claims: Collection[str] = ()) -> Sequence[Check]:
    """Named checks with a claim and a boolean outcome, names unique; an empty detail only for the claims
    in ``flag_claims``."""
    assert checks, "no checks returned"
    for check in checks:
        assert isinstance(check, Check), f"not a Check: {check!r}"
        assert isinstance(check.claim, str) and check.claim.strip()
        assert NAME.fullmatch(check.name), f"check {check.claim!r} has no valid name: {check.name!r}"
        assert isinstance(check.passed, (bool, np.bool_))
        assert isinstance(check.detail, str)
        assert check.detail.strip() or check.claim in flag_claims, f"empty detail for {check.claim!r}"
    names = [check.name for check in checks]
    assert len(set(names)) == len(names), f"repeated names: {names}"
    return checks


def failing(checks: Sequence[Check]) -> list[int]:
    """Indices of the claims that fail."""
    return [i for i, check in enumerate(checks) if not check.passed]


def claims(checks: Sequence[Check]) -> list[str]:
    return [check.claim for check in checks]


def with_input(base: Mapping[str, Any], key: str | tuple[str, Any], value: Any) -> dict[str, Any]:
    """``base`` with one input replaced: ``key`` names an argument, or ``(argument, entry)`` of a mapping."""
    if isinstance(key, tuple):
        name, entry = key
        return {**base, name: {**base[name], entry: value}}
    return {**base, key: value}


def case(
    fn: Callable[..., Any], base: Mapping[str, Any], key: str | tuple[str, Any], inside: Any, outside: Any,
    index: int, shown: str,
) -> Any:  # fmt: skip
    """A boundary case: ``fn`` passes with ``inside`` and fails claim ``index`` alone with ``outside``."""
    label = key if isinstance(key, str) else f"{key[0]}[{key[1]}]"
    name = fn.__name__.removesuffix("_checks")
    args = (fn, with_input(base, key, inside), with_input(base, key, outside), base, index, shown)
    return pytest.param(*args, id=f"{name}-{label}-claim{index}")


# --------------------------------------------------------------------------------------------------
# Check functions whose checks are always decided (``well_formed``), told apart by claim
# --------------------------------------------------------------------------------------------------


def nan_case(
    fn: Callable[..., Any], base: Mapping[str, Any], key: str | tuple[str, Any], failing: list[int], id: str,
    value: Any = math.nan,
) -> Any:  # fmt: skip
    """A nan case for :func:`assert_nan_fails`: ``fn``, ``base`` with ``key`` set to ``value`` (nan), ``base``
    and the claims that must fail."""
    return pytest.param(fn, with_input(base, key, value), base, failing, id=id)


def assert_all_pass(fn: Callable[..., Sequence[Check]], base: Mapping[str, Any], count: int) -> None:
    """Every one of the ``count`` checks ``fn`` makes on ``base`` passes, each with a claim of its own."""
    checks = well_formed(fn(**base))
    assert len(checks) == count
    assert failing(checks) == []
    assert len(set(claims(checks))) == count, "two claims share a text"


def assert_flips_alone(
    fn: Callable[..., Sequence[Check]], inside: Mapping[str, Any], outside: Mapping[str, Any],
    base: Mapping[str, Any], index: int, shown: str,
) -> None:  # fmt: skip
    """A :func:`case`: the same claims as on ``base``, all passing just inside, claim ``index`` alone failing
    just outside, its detail showing ``shown``."""
    expected = claims(fn(**base))
    just_in = well_formed(fn(**inside))
    assert failing(just_in) == []
    assert claims(just_in) == expected
    just_out = well_formed(fn(**outside))
    assert claims(just_out) == expected, "moving a value must not change which claims are made"
    assert failing(just_out) == [index]
    assert shown in just_out[index].detail, just_out[index].detail


def assert_nan_fails(
    fn: Callable[..., Sequence[Check]], changed: Mapping[str, Any], base: Mapping[str, Any],
    failing_claims: list[int], shown: str = "nan",
) -> None:  # fmt: skip
    """A :func:`nan_case`: no crash, the same claims as on ``base``, exactly ``failing_claims`` failing, each
    detail showing ``shown``."""
    checks = well_formed(fn(**changed))
    assert claims(checks) == claims(fn(**base))
    assert failing(checks) == failing_claims
    for i in failing_claims:
        assert shown in checks[i].detail.lower(), checks[i].detail


# --------------------------------------------------------------------------------------------------
# Check functions some of whose checks may be undefined (``passed is None``): well-formedness admits
# ``None``, only the decided claims that fail count as failing, and the checks are told apart by name.
# --------------------------------------------------------------------------------------------------


def well_formed_or_undefined(checks: Sequence[Check]) -> Sequence[Check]:
    """Named, non-empty checks with a boolean (or undefined) outcome and a detail."""
    assert checks, "no checks returned"
    for check in checks:
        assert isinstance(check, Check) and len(check) == 5 and check.against in ("paper", "reference")
        assert isinstance(check.claim, str) and check.claim.strip()
        assert check.passed is None or isinstance(check.passed, (bool, np.bool_))
        assert isinstance(check.detail, str) and check.detail.strip(), check
        assert check.name and check.name == check.name.lower() and " " not in check.name, check.name
    return checks


def refuted(checks: Sequence[Check]) -> list[int]:
    """Indices of the claims that are decided and fail (an undefined claim is not refuted)."""
    return [i for i, c in enumerate(checks) if c.passed is not None and not c.passed]


def undefined(checks: Sequence[Check]) -> list[int]:
    """Indices of the claims left undefined."""
    return [i for i, c in enumerate(checks) if c.passed is None]


def names(checks: Sequence[Check]) -> list[str]:
    return [check.name for check in checks]


def nan_case_by_name(
    fn: Callable[..., Any], base: Mapping[str, Any], key: str | tuple[str, Any], failing: list[int], id: str
) -> Any:
    """A nan case for :func:`assert_nan_fails_by_name`: ``fn``, ``base`` with ``key`` set to nan, and the
    claims that must fail."""
    return pytest.param(fn, with_input(base, key, math.nan), failing, id=id)


def assert_all_pass_by_name(
    fn: Callable[..., Sequence[Check]], base: Mapping[str, Any], expected: Sequence[str]
) -> None:
    """``fn`` makes on ``base`` the checks named ``expected``, in order, each decided and passing, each with
    a claim of its own."""
    checks = well_formed_or_undefined(fn(**base))
    assert names(checks) == expected
    assert refuted(checks) == [] and undefined(checks) == []
    assert len(set(claims(checks))) == len(checks), "two claims share a text"


def assert_flips_alone_by_name(
    fn: Callable[..., Sequence[Check]], inside: Mapping[str, Any], outside: Mapping[str, Any],
    base: Mapping[str, Any], index: int, shown: str,
) -> None:  # fmt: skip
    """A :func:`case`: the same checks as on ``base``, none refuted just inside, claim ``index`` alone
    refuted just outside, its detail showing ``shown``."""
    expected = names(fn(**base))
    just_in = well_formed_or_undefined(fn(**inside))
    assert refuted(just_in) == [] and names(just_in) == expected
    just_out = well_formed_or_undefined(fn(**outside))
    assert names(just_out) == expected, "moving a value must not change which checks are made"
    assert refuted(just_out) == [index]
    assert shown in just_out[index].detail, just_out[index].detail


def assert_nan_fails_by_name(
    fn: Callable[..., Sequence[Check]], inputs: Mapping[str, Any], failing_claims: list[int]
) -> None:
    """A :func:`nan_case_by_name`: no crash, exactly ``failing_claims`` refuted."""
    checks = well_formed_or_undefined(fn(**inputs))
    assert refuted(checks) == failing_claims


# --------------------------------------------------------------------------------------------------
# Checks read as a whole, by verdict
# --------------------------------------------------------------------------------------------------


def all_pass(checks: Sequence[Check]) -> bool:
    """Whether every claim passes (an undefined one does not)."""
    return all(c.passed for c in checks)


def verdicts(checks: Sequence[Check]) -> dict[str, bool | None]:
    """Each check's outcome by its name."""
    return {c.name: c.passed for c in checks}


def named(checks: Sequence[Check]) -> Sequence[Check]:
    """Checks each with a name, no two alike."""
    listed = names(checks)
    assert all(listed) and len(set(listed)) == len(listed), listed
    return checks


def perturbed(table: Any, cell: tuple[int, int], value: float) -> np.ndarray:
    """A float copy of ``table`` with one ``cell`` set to ``value``."""
    out = np.array(table, dtype=float)
    out[cell] = value
    return out
