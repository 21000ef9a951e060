"""The book's record of every error rate (``error_rates`` and ``headline`` in metrics.json).

The records of the chapter's five Monte Carlo sweeps, in the order the chapter runs them, with the
headline numbers its summary quotes, and the interval of a rate as the prose writes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd

from dpnet.chapters.distributed_mle._common import Record
from dpnet.chapters.distributed_mle.mle_errors_vs_eps import EpsSweep
from dpnet.chapters.distributed_mle.mle_errors_vs_gap import GapSweep
from dpnet.chapters.distributed_mle.mle_errors_vs_k import KSweep
from dpnet.chapters.distributed_mle.mle_gm_every_round import EveryRound
from dpnet.chapters.distributed_mle.mle_win_probability import WinFloor
from dpnet.params import Cost
from dpnet.results import Check, Deviation

__all__ = ["Summary", "cost", "interval", "summary"]


def cost(values: Mapping[str, Any]) -> Cost:
    """Negligible: it collects the records the sweeps made (their cost is the sweeps')."""
    return Cost()


def interval(record: Mapping[str, Any], kind: str, digits: int = 3) -> str:
    """The 95 % Clopper–Pearson interval of a rate of an error-rate record, as ``"lo–hi"``."""
    return f"{record[kind + '_lo']:.{digits}f}–{record[kind + '_hi']:.{digits}f}"


@dataclass(frozen=True)
class Summary:
    """Every error-rate record of the chapter and its headline numbers, under their metrics.json names."""

    rows: list[Record]
    headline: dict[str, Any]

    #: The book's own record: it checks nothing, departs from no paper and has no paper setting.
    checks: ClassVar[Mapping[str, list[Check]]] = {}
    deviations: ClassVar[tuple[Deviation, ...]] = ()
    paper_setting: ClassVar[bool] = True

    def metrics(self) -> dict[str, Any]:
        """``error_rates`` (every record, sweep by sweep) and ``headline``."""
        return {"error_rates": self.rows, "headline": self.headline}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the records are in metrics.json."""
        return {}


def summary(eps: EpsSweep, ks: KSweep, gap: GapSweep, floor: WinFloor, every_round: EveryRound) -> Summary:
    """Collect the records of the five sweeps, in the order the chapter runs them."""
    return Summary([*eps.rows, *ks.rows, *gap.rows, *floor.rows, *every_round.rows], gap.headline)
