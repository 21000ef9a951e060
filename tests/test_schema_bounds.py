"""Every chapter's schema at its boundary values: each is accepted or refused up front, by name.

A value a schema accepts must run. The values at the ends of each parameter's range (the check's
``extremes``) either validate, together with the quick defaults of the rest, or are refused with a
:class:`~dpnet.errors.ParameterError` that names the parameter, before any kernel starts.
"""

from __future__ import annotations

import pytest

from dpnet import chapters
from dpnet.errors import ParameterError

CASES = [
    (cid, name, value)
    for cid in chapters.CHAPTER_IDS
    for name, param in chapters.schema(cid).params.items()
    for value in param.check.extremes
]


def test_every_chapter_has_boundary_cases() -> None:
    covered = {cid for cid, _, _ in CASES}
    assert covered == set(chapters.CHAPTER_IDS)


@pytest.mark.parametrize(("cid", "name", "value"), CASES, ids=[f"{c}-{n}-{v}" for c, n, v in CASES])
def test_boundary_value_resolves_or_is_refused_by_name(cid: str, name: str, value: object) -> None:
    try:
        P = chapters.resolve(cid, {"mode": "quick", name: value})
    except ParameterError as exc:
        assert name in str(exc), f"{cid}: {name} = {value!r} refused without naming it: {exc}"
    else:
        assert P[name] == value
