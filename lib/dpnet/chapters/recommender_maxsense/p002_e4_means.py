"""Paper 002, experiment E4 (the book's), continued: MaxSense's closed-form cluster means against the fast
and the exact w-subset simulator, at the test case of :data:`dpnet.reference.recommender.MEANS_CASE`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from dpnet import recommender as rc
from dpnet.params import Cost, Parameters
from dpnet.reference import recommender as ref


def cost(values: Mapping[str, Any]) -> Cost:
    """The cluster means' time and memory: five runs of each simulator at a fixed size, a few seconds
    whatever the parameters (counted in the chapter's fixed seconds)."""
    return Cost()


def cluster_means(P: Parameters) -> dict[str, list[float]]:
    """The closed-form cluster means of the test case against the fast and the exact w-subset simulator
    (``runs`` runs each; streams ``p002-e4/means-fast`` and ``p002-e4/means-subset``), by
    ``"closed"``, ``"fast"`` and ``"subset"``: each a mean score ``B/U`` per cluster."""
    case, theta = ref.MEANS_CASE, P.theta
    model = rc.BlockModel((1.0,), (0.5, 0.5), (case["b"],), case["n_items"], case["w"])
    fast_rng, subset_rng = P.rng("p002-e4/means-fast"), P.rng("p002-e4/means-subset")
    labels = rc.item_labels(model, fast_rng)

    def per_cluster(scores: Callable[..., NDArray[np.int64]], rng: np.random.Generator) -> list[float]:
        runs = [
            scores(model, labels, case["n_users"], case["eps"], rng, theta=theta) for _ in range(case["runs"])
        ]
        mean = np.mean(runs, axis=0) / case["n_users"]
        return [float(mean[labels == c].mean()) for c in range(2)]

    closed = [float(m) for m in rc.maxsense_means(model, case["eps"], theta)]
    return {
        "closed": closed,
        "fast": per_cluster(rc.maxsense_scores, fast_rng),
        "subset": per_cluster(rc.maxsense_scores_subset, subset_rng),
    }
