"""Shared helpers of the tests of published-outcome checks (``dpnet.reference`` modules).

A check is a ``(claim, passed, detail)`` triple. The tests feed a check function a base of inputs on which
every claim passes, then move one input just inside and just outside its bound (:func:`case`) and assert
that exactly one claim flips.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import numpy as np
import pytest

Check = tuple[str, bool, str]


def well_formed(checks: Sequence[Check], flag_claims: Collection[str] = ()) -> Sequence[Check]:
    """Non-empty triples with a boolean outcome; an empty detail only for the claims in ``flag_claims``."""
    assert checks, "no checks returned"
    for check in checks:
        assert len(check) == 3
        claim, passed, detail = check
        assert isinstance(claim, str) and claim.strip()
        assert isinstance(passed, (bool, np.bool_))
        assert isinstance(detail, str)
        assert detail.strip() or claim in flag_claims, f"empty detail for {claim!r}"
    return checks


def failing(checks: Sequence[Check]) -> list[int]:
    """Indices of the claims that fail."""
    return [i for i, (_, passed, _) in enumerate(checks) if not passed]


def claims(checks: Sequence[Check]) -> list[str]:
    return [claim for claim, _, _ in checks]


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
