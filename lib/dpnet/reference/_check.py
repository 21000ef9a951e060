"""The shape of a recorded check."""

from __future__ import annotations

from typing import NamedTuple

from dpnet.results import Against


class Check(NamedTuple):
    """A comparison of a computed result with a published claim or an independent reference.

    Attributes
    ----------
    claim
        What is compared, as a sentence ("ε*_RR < 1 in every cell (paper §2)").
    passed
        Whether it holds in this run; ``None`` when it is undefined for these parameters.
    detail
        The numbers behind the verdict, or why it is undefined.
    name
        A short name, unique within its item ("below-one"): the check's anchor in the report and the
        name of its badge in the chapter.
    against
        ``"paper"`` when the check compares with a number or claim the paper publishes (its figures,
        tables, theorems' stated consequences); ``"reference"`` when it compares with an independent
        reference: an exact formula, an independent implementation or a data set's documented facts.
    """

    claim: str
    passed: bool | None
    detail: str = ""
    name: str = ""
    against: Against = "paper"
