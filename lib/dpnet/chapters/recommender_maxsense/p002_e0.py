"""Paper 002, experiment E0 (the book's): the private bit, randomized response's keep rate on 10⁶ bits, and
the worst likelihood ratio of each scheme's whole release, enumerated on a small instance."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from dpnet import recommender as rc
from dpnet.chapters.recommender_maxsense._common import N_REF, W_REF, eps_label
from dpnet.params import Cost, Parameters
from dpnet.recommender import privacy
from dpnet.reference import recommender as ref
from dpnet.results import Check

#: E0: the budgets of the randomized-response table, and the bits drawn.
E0_EPS = (0.1, 1.0, 3.0)
E0_BITS = 1_000_000
#: E0: the instance on which every release is enumerated (N items, w ratings), and the bits of Multi-MaxSense.
E0_PRIVACY = (5, 2)
E0_PRIVACY_BITS = 2
#: E0: the schemes whose releases are enumerated, as the table names them.
E0_SCHEMES = {
    "pairwise": "Pairwise-Preference, a uniform pair",
    "maxsense": "MaxSense",
    "multi-maxsense": f"Multi-MaxSense, Q = {E0_PRIVACY_BITS} bits at ε/Q",
}


def cost(values: Mapping[str, Any]) -> Cost:
    """E0's time and memory: negligible (a few draws of 10⁶ bits, counted in the chapter's fixed seconds)."""
    return Cost()


@dataclass(frozen=True)
class Mechanism:
    """E0: randomized response's empirical keep rate on 10⁶ bits, and MaxSense's separability on M-asym."""

    keep: Mapping[float, float]
    inf_flips: int
    delta_asym: float
    ratios: Mapping[str, Mapping[float, float]]  # scheme: {ε: worst likelihood ratio of a release}
    rated: Mapping[
        float, tuple[float, float]
    ]  # ε: (over all data, over the ratings), pair from the rated items
    checks: Mapping[str, list[Check]]
    #: E0 has no paper setting to leave: its budgets are the book's.
    paper_setting = True

    @property
    def table(self) -> pd.DataFrame:
        """ε, ε̂, the flip probability and the empirical keep rate."""
        eps = [*self.keep, math.inf]
        return pd.DataFrame(
            {
                "ε": [eps_label(e) for e in eps],
                "ε̂ = 2 tanh(ε/2)": [rc.eps_hat(e) for e in eps],
                "flip probability f": [rc.flip_prob(e) for e in eps],
                f"empirical keep rate ({E0_BITS:,} bits)": [
                    *self.keep.values(),
                    1 - self.inf_flips / E0_BITS,
                ],
            }
        )

    @property
    def privacy_table(self) -> pd.DataFrame:
        """Each scheme's worst likelihood ratio over two users' data, in units of e^ε, at every ε."""
        rows = [
            {"release": E0_SCHEMES[k], "protects": "rated items and ratings",
             **{eps_label(e): r / math.exp(e) for e, r in by_eps.items()}}
            for k, by_eps in self.ratios.items()
        ]  # fmt: skip
        for j, what in enumerate(("rated items and ratings", "ratings (same rated items)")):
            ratio = {eps_label(e): pair[j] / math.exp(e) for e, pair in self.rated.items()}
            rows.append({"release": "Pairwise-Preference, a pair of rated items", "protects": what, **ratio})
        return pd.DataFrame(rows)

    @property
    def deviations(self) -> tuple[tuple[str, str, str], ...]:
        """None."""
        return ()

    def metrics(self) -> dict[str, Any]:
        """None: the chapter glues what it reports."""
        return {}

    def tables(self) -> dict[str, pd.DataFrame]:
        """None: the chapter shows :attr:`table` (``p002-e0``) and :attr:`privacy_table`
        (``p002-e0-privacy``)."""
        return {}


def mechanism(P: Parameters) -> Mechanism:
    """E0 (stream ``p002-e0``): 10⁶ fair bits through randomized response at each ε of ``E0_EPS``
    and at ε = ∞, one generator in order; every release of each scheme enumerated at the finite ε of
    ``eps_values`` (``E0_PRIVACY``, θ = 1); δ_min of M-asym at the reference case (M-sym's, 0, is a unit
    test)."""
    rng = P.rng("p002-e0")
    bits = rng.random(E0_BITS) < 0.5
    keep = {eps: float(np.mean(rc.rr_bits(bits, eps, rng) == bits)) for eps in E0_EPS}
    inf_flips = int(np.sum(rc.rr_bits(bits, math.inf, rng) != bits))
    # the keep rates: the others are identities, unit-tested
    checks = [c for c in ref.rr_checks(keep, {}, inf_flips) if c.name.startswith("keep-")]
    n, w = E0_PRIVACY
    finite = [e for e in P.eps_values if math.isfinite(e)]
    ratios = {
        k: {e: privacy.worst_ratio(k, n, w, e, n_bits=E0_PRIVACY_BITS if k == "multi-maxsense" else 1)
            for e in finite}
        for k in E0_SCHEMES
    }  # fmt: skip
    rated = {
        e: (privacy.worst_ratio("pairwise-rated", n, w, e),
            privacy.worst_ratio("pairwise-rated", n, w, e, ratings_only=True))
        for e in finite
    }  # fmt: skip
    checks += ref.privacy_checks(ratios, rated)
    delta_asym = rc.delta_min(rc.m_asym(N_REF, W_REF), P.theta)
    return Mechanism(keep, inf_flips, delta_asym, ratios, rated, {"p002-e0": checks})
