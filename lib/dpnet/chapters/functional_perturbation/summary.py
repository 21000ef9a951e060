"""Chapter 8, the summary: the rows that join the book's experiments E3 and E4 (errors and slopes) and
E6 and E7 (message perturbation) under the metrics' names the book reads (it records no item)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from dpnet.params import Cost
from dpnet.results import Check

if TYPE_CHECKING:
    from dpnet.chapters.functional_perturbation.p004_e3 import Tradeoff
    from dpnet.chapters.functional_perturbation.p004_e4 import CaseStudy
    from dpnet.chapters.functional_perturbation.p004_e6 import MessagePerturbation
    from dpnet.chapters.functional_perturbation.p004_e7 import RecordLevel

__all__ = ["Summary", "cost", "summary"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Nothing: the summary only joins rows the experiments computed."""
    return Cost()


@dataclass(frozen=True)
class Summary:
    """The rows that join experiments: errors and slopes of E3 and E4, message perturbation of E6 and E7."""

    error_vs_eps: list[dict[str, Any]]
    fitted_slope: list[dict[str, Any]]
    message: list[dict[str, Any]]
    #: The slides fix no setting of the summary that a run could leave.
    paper_setting = True
    #: The summary records no deviation.
    deviations = ()

    @property
    def checks(self) -> Mapping[str, list[Check]]:
        """None: the experiments check their own items."""
        return {}

    def metrics(self) -> dict[str, Any]:
        """Under their metrics.json names."""
        return {"error_vs_eps": self.error_vs_eps, "fitted_slope": self.fitted_slope,
                "message_perturbation": self.message}  # fmt: skip

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the rows are metrics."""
        return {}


def summary(e3: Tradeoff, e4: CaseStudy, e6: MessagePerturbation, e7: RecordLevel) -> Summary:
    """Join the rows of E3 and E4 (errors, slopes) and of E6 and E7 (message perturbation)."""
    slope_2d = {"problem": "logistic", "q": 2.0, "slope": e4.slope}
    return Summary(
        [*e3.error_rows, *e4.error_rows], [*e3.slope_rows, slope_2d], [*e6.best_rows, *e7.record_rows]
    )
