"""The non-degeneracy conditions of Thm 3.5 (paper 002), on the expected matrix of Pairwise-Preference.

Users are asked about uniform pairs, so the expected count matrix ``E Â`` is, off its diagonal,
proportional to ``M_{l(i) l(j)}``, the probability that a user asked about a pair of items of clusters
``(l, l')`` releases a 1: ``M = f + (1 − 2f) P[S₀ = 1]``
(:func:`~dpnet.recommender.simulate.pair_sketch_probabilities`). Its eigenvectors with a non-zero
eigenvalue are constant on the clusters: ``y(i) = x_{l(i)}`` with ``M diag(β) x = λ x / N``, so the
conditions of Thm 3.5 read on the ``L × L`` matrix ``M diag(β)``:

1. its ``L`` eigenvalues of largest magnitude have distinct absolute values;
2. the rows ``t_l = (y_1(l), …, y_L(l))`` of the (normalized) eigenvectors differ between clusters.

Both hold for a model whose clusters cannot be told apart (every entry of ``M`` equal): then
``λ_2 = 0`` and its eigenvector still separates the rows. So the book also reports ``|λ_L|/|λ_1|``:
a spectral method can only use eigenvectors whose eigenvalue stands out of the noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from dpnet.recommender.ldp import flip_prob
from dpnet.recommender.model import BlockModel
from dpnet.recommender.simulate import pair_sketch_probabilities

__all__ = ["PairwiseSpectrum", "pairwise_spectrum"]


@dataclass(frozen=True)
class PairwiseSpectrum:
    """The spectrum of ``M diag(β)`` and Thm 3.5's conditions on it.

    Attributes
    ----------
    eigenvalues
        The ``L`` eigenvalues, by decreasing magnitude.
    rows
        ``t_l``, one row per cluster: the eigenvectors (unit norm in ``Σ_l β_l x_l²``) read at cluster ``l``.
    """

    eigenvalues: NDArray[np.float64]
    rows: NDArray[np.float64]

    @property
    def magnitude_gap(self) -> float:
        """The smallest gap between consecutive ``|λ|``, relative to ``|λ_1|`` (condition 1: ``> 0``)."""
        mags = np.abs(self.eigenvalues)
        return float(np.min(-np.diff(mags)) / mags[0]) if mags.size > 1 else 1.0

    @property
    def row_separation(self) -> float:
        """The smallest distance between two clusters' rows ``t_l`` (condition 2: ``> 0``)."""
        t = self.rows
        d = np.sqrt(((t[:, None, :] - t[None, :, :]) ** 2).sum(-1))
        return float(d[np.triu_indices(t.shape[0], 1)].min()) if t.shape[0] > 1 else 1.0

    @property
    def smallest_ratio(self) -> float:
        """``|λ_L|/|λ_1|``: how far the last eigenvalue the algorithm uses stands from 0."""
        return float(abs(self.eigenvalues[-1]) / abs(self.eigenvalues[0]))

    def holds(self, tol: float = 1e-9) -> bool:
        """Whether both conditions of Thm 3.5 hold (gaps above ``tol``)."""
        return self.magnitude_gap > tol and self.row_separation > tol


def pairwise_spectrum(
    model: BlockModel, eps: float, *, sketch: str = "agree", support_known: bool = False
) -> PairwiseSpectrum:
    """The spectrum of Pairwise-Preference's expected matrix on ``model`` at ``eps``, reduced to clusters."""
    f = flip_prob(eps)
    m = f + (1.0 - 2.0 * f) * pair_sketch_probabilities(model, sketch, support_known)
    beta = np.asarray(model.beta)
    root = np.sqrt(beta)
    # M diag(β) is similar to the symmetric diag(√β) M diag(√β): same eigenvalues, x = u/√β
    values, vectors = np.linalg.eigh(root[:, None] * m * root[None, :])
    order = np.argsort(-np.abs(values), kind="stable")
    x = vectors[:, order] / root[:, None]  # Σ_l β_l x_l² = 1
    return PairwiseSpectrum(values[order], x)
