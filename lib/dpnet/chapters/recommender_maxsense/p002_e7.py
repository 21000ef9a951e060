"""Paper 002, experiment E7 (the book's): one-bit sketches without privacy (w = 1), U_90 of the four
1-bit schemes against their approximations and Thm 4.3's Fano bound."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import SMALL
from dpnet.estimation import loglog_slope
from dpnet.params import Cost, Parameters
from dpnet.plotting import fixed_ticks, panel_row
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E7: the item counts of the 1-bit schemes.
E7_N = (16, 32, 64, 128, 256)
#: Measured on this 2-core machine (one core): one run of the four 1-bit schemes at every N of ``E7_N``.
ONE_BIT_SECONDS = 3.1e-4


def cost(values: Mapping[str, Any]) -> Cost:
    """E7's time: ``one_bit_trials`` runs of the four schemes at every N, ``ONE_BIT_SECONDS`` each. Its
    memory is negligible."""
    return Cost(seconds=ONE_BIT_SECONDS * values["one_bit_trials"])


@dataclass(frozen=True)
class OneBit:
    """E7: U_90 of the four 1-bit schemes (w = 1, no privacy), their approximations and the Fano bound."""

    table: pd.DataFrame  # scheme, N, U_90, formula, measured/formula
    checks: Mapping[str, list[Check]]
    #: E7 has no paper setting to leave: its sizes are the book's.
    paper_setting = True

    def u90(self, scheme: str, n: int) -> float:
        """U_90 of a scheme at N."""
        t = self.table
        return float(t[(t["scheme"] == scheme) & (t["N"] == n)]["U_90"].iloc[0])

    @property
    def slopes(self) -> dict[str, float]:
        """Each scheme's slope of log U_90 in log N."""
        return {
            s: loglog_slope(c["N"], c["U_90"], min(E7_N), max(E7_N))
            for s, c in self.table.groupby("scheme", sort=False)
        }

    @property
    def adaptive_ratio(self) -> dict[int, float]:
        """Adaptive over non-adaptive point-query U_90, for N ≥ 64."""
        return {n: self.u90("adaptive", n) / self.u90("point_query", n) for n in E7_N if n >= 64}

    @property
    def adaptive_over_fano(self) -> float:
        """The adaptive scheme's smallest U_90 over Thm 4.3's Fano bound, over every N (a scheme the
        theorem's proof does not cover)."""
        return min(self.u90("adaptive", n) / rc.fano_one_bit_users(n) for n in E7_N)

    @property
    def n(self) -> int:
        """The N at which the schemes are compared with their approximations."""
        return int(ref.ONE_BIT_N)

    @property
    def order(self) -> float:
        """``N/ln² N`` at :attr:`n`: the order of the price of exactly one bit."""
        return self.n / math.log(self.n) ** 2

    @property
    def price(self) -> float:
        """At N = 128: the adaptive scheme's U_90 over the average-1-bit scheme's."""
        return self.u90("adaptive", ref.ONE_BIT_N) / self.u90("average_bit", ref.ONE_BIT_N)

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None."""
        return ()

    def metrics(self) -> dict[str, Any]:
        """None: its slopes are recorded by the chapter's summary."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every scheme at every N."""
        return {"p002-e7": self.table}

    @property
    def pivot(self) -> pd.DataFrame:
        """U_90 by N (rows) and scheme (columns)."""
        return self.table.pivot(index="N", columns="scheme", values="U_90")

    def figure(self) -> Figure:
        """U_90 against N of every scheme, its approximation (lines) and the Fano bound."""
        fig, (ax,) = panel_row(1, width=5.6, height=4.2)
        for j, (scheme, slope) in enumerate(self.slopes.items()):
            cell = self.table[self.table["scheme"] == scheme]
            ax.loglog(cell["N"], cell["U_90"], "o", color=f"C{j}", label=f"{scheme}: slope {slope:.2f}")
            ax.loglog(cell["N"], cell["formula"], "-", lw=0.8, color=f"C{j}")
        ax.loglog(E7_N, [rc.fano_one_bit_users(n) for n in E7_N], "k--", label="Fano bound, any 1-bit sketch")
        ax.set(xlabel="items N", ylabel="U_90", title="1-bit schemes, w = 1 (lines: approximations)")
        fixed_ticks(ax.xaxis, E7_N)
        ax.legend(fontsize=SMALL)
        return fig


def one_bit(P: Parameters) -> OneBit:
    """E7 (streams ``p002-e7/<scheme>``): ``one_bit_trials`` runs of each scheme at every N of ``E7_N``,
    one generator per scheme through the N in order."""
    rows = []
    for scheme in rc.SCHEMES:
        rng = P.rng(f"p002-e7/{scheme}")
        for n in E7_N:
            need = rc.users_needed(scheme, n, P.one_bit_trials, rng)
            rows.append(
                {
                    "scheme": scheme,
                    "N": n,
                    "U_90": float(np.quantile(need, 0.9)),
                    "formula": rc.approximate_u90(scheme, n),
                }
            )
    table = pd.DataFrame(rows)
    table["measured/formula"] = table["U_90"] / table["formula"]
    out = OneBit(table, {})
    at = table[table["N"] == ref.ONE_BIT_N].set_index("scheme")
    checks = ref.one_bit_checks(at["measured/formula"].to_dict(), out.adaptive_ratio)
    # Thm 4.3 through Fano binds the non-adaptive schemes that release exactly one bit (its proof, through
    # Lemma 4.1, takes Z uniform given the query: an adaptive query is not covered)
    exact = table[table["scheme"] == "point_query"]
    margin = (exact["U_90"] / [rc.fano_one_bit_users(n) for n in exact["N"]]).tolist()
    checks += ref.fano_checks(margin)
    return replace(out, checks={"p002-e7": checks})
