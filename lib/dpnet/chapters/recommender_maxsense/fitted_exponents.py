"""The book's summary of Chapter 7 (table ``fitted_exponents``): every measured U_90 of E3–E6 and E8 (E5's
three clusters and E6's per-user runs last), with its prediction where the library has one, and every fitted
exponent of E3, E4, E5 and E7."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import eps_label
from dpnet.chapters.recommender_maxsense.p002_e3 import PairwiseRich
from dpnet.chapters.recommender_maxsense.p002_e4 import ScarceMaxSense
from dpnet.chapters.recommender_maxsense.p002_e4_theta import SensingConstant
from dpnet.chapters.recommender_maxsense.p002_e5 import RichVsScarce
from dpnet.chapters.recommender_maxsense.p002_e5_three import ThreeClusters
from dpnet.chapters.recommender_maxsense.p002_e6 import MultiMaxSense
from dpnet.chapters.recommender_maxsense.p002_e7 import OneBit
from dpnet.chapters.recommender_maxsense.p002_e8 import Adaptive
from dpnet.params import Cost
from dpnet.results import Check


def cost(values: Mapping[str, Any]) -> Cost:
    """The summary's time and memory: negligible (it joins the other experiments' results)."""
    return Cost()


@dataclass(frozen=True)
class U90Record:
    """One measured (or predicted) U_90 of a setting, for the chapter's ``u90`` metrics."""

    setting: rc.Setting
    model: str
    u90: float
    predicted: float | None = None


def _records(
    settings: Sequence[rc.Setting], model: str, u90: Sequence[float], predicted: Sequence[float] | None = None
) -> tuple[U90Record, ...]:
    """One record per setting, with its prediction when ``predicted`` is given."""
    pred = [None] * len(settings) if predicted is None else list(predicted)
    return tuple(U90Record(s, model, u, p) for s, u, p in zip(settings, u90, pred, strict=True))


@dataclass(frozen=True)
class Summary:
    """Every measured U_90 (with its prediction where the library has one) and every fitted exponent."""

    records: tuple[U90Record, ...]
    exponents: tuple[dict[str, Any], ...]
    #: The summary has no paper setting to leave: it checks nothing.
    paper_setting = True

    @property
    def checks(self) -> dict[str, list[Check]]:
        """None: the experiments it joins carry the checks."""
        return {}

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None."""
        return ()

    @property
    def exponent_table(self) -> pd.DataFrame:
        """algorithm, variable, slope."""
        return pd.DataFrame(list(self.exponents))

    def metrics(self) -> dict[str, Any]:
        """``u90``, ``u90_predicted`` and ``fitted_exponents``."""
        return {
            "u90": [rc.record(r.setting, r.model, r.u90) for r in self.records],
            "u90_predicted": [
                rc.record(r.setting, r.model, r.predicted, name="u90")
                for r in self.records
                if r.predicted is not None
            ],
            "fitted_exponents": list(self.exponents),
        }

    def tables(self) -> dict[str, pd.DataFrame]:
        """The fitted exponents."""
        return {"fitted_exponents": self.exponent_table}


def summary(
    e3: PairwiseRich,
    e4: ScarceMaxSense,
    e4b: SensingConstant,
    e5: RichVsScarce,
    e6: MultiMaxSense,
    e7: OneBit,
    e8: Adaptive,
    three: ThreeClusters | None = None,
) -> Summary:
    """Join the U_90 of E3–E6 and E8 and the exponents of E3, E4, E5 and E7, in the chapter's order; then
    E6's per-user U_90 and (when given) the three-cluster runs."""
    s5 = e5.settings
    records = (
        *_records(e3.unique, "M-sym", [e3.u90[s] for s in e3.unique]),
        *_records(e4.unique, "M-asym", [e4.u90[s] for s in e4.unique], [e4.predicted(s) for s in e4.unique]),
        *_records(e4b.settings, "M-asym", e4b.u90, [s.predicted_u90() for s in e4b.settings]),
        *_records(s5["pairwise"], "M-asym", e5.pp_u90),
        *_records(s5["maxsense"], "M-asym", e5.ms_u90, e5.ms_predicted),
        *_records(s5["exponent"], "M-sym", e5.exponent_u90.ravel().tolist()),
        *_records(e6.unique, "M-asym", [e6.u90[s] for s in e6.unique], [e6.predicted(s) for s in e6.unique]),
        *_records(e8.settings, "M-asym", e8.u90, [s.predicted_u90() for s in e8.settings]),
        *_records(list(e6.exact), "M-asym", list(e6.exact.values())),
        *(() if three is None else (
            *_records([three.maxsense], "M-asym3", [three.maxsense_u90], [three.predicted]),
            *_records([three.pairwise], "M-sym3", [three.pairwise_u90]),
        )),
    )  # fmt: skip
    exponents = (
        {"algorithm": "pairwise", "variable": "N (U_90 / ln N)", "slope": e3.slope},
        *({"algorithm": "maxsense", "variable": v, "slope": s} for v, s in e4.slopes.items()),
        *(
            {"algorithm": f"pairwise ({k}, ε = {eps_label(e)})", "variable": "N/w", "slope": s}
            for (e, k), s in e5.exponents.items()
        ),
        *({"algorithm": f"1-bit {scheme}", "variable": "N", "slope": s} for scheme, s in e7.slopes.items()),
    )
    return Summary(records, exponents)
