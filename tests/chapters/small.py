"""What the tests of one chapter's items share: their small parameter sets (keyed by chapter id), the
resolver of a chapter's parameters, and the inputs and names more than one of them reads.

A plain helper module, not a test module: the item tests and the chapter tests import it, so that no test
module imports another.
"""

from __future__ import annotations

import math

from dpnet.chapters import resolve
from dpnet.params import Parameters

#: Small sizes of each chapter's parameters, which keep an experiment to a second or two.
SMALL: dict[str, dict[str, object]] = {
    "distributed-estimation": {"dataset": "german_households", "horizon": 30, "eps_values": [0.5, 1.0, 2.0],
                               "n_draws": 2, "n_mc": 100},
    "distributed-mle": {"replications": 20, "eps_values": [0.5, 5.0], "K_values": [1, 4],
                        "gap_values": [0.0, 3.0], "iterations": 20},
    "functional-perturbation": {"n_agents": 4, "basis_order": 8, "degree_2d": 4, "runs": 5, "runs_2d": 2,
                                "message_runs": 5, "impossibility_runs": 100, "dgd_iterations": 200,
                                "truncation_runs": 2},
    "online-learning": {"n_agents": 4, "horizon": 60, "limit_horizon": 200, "replications": 20,
                        "eps_values": [0.5, 5.0], "graphs": ["complete", "path"],
                        "arrival_rates": [1.0, 0.5]},
    "recommender-maxsense": {"trials": 10, "pp_trials": 5, "one_bit_trials": 50, "n_items": [20, 30],
                             "ratings_per_user": [4, 6], "eps_values": [1.0, "inf"]},
}  # fmt: skip


def params(chapter: str, **values: object) -> Parameters:
    """The chapter's parameters: ``values``, and the schema's defaults for the rest."""
    return resolve(chapter, values)


def small(chapter: str, **overrides: object) -> Parameters:
    """The chapter's parameters on its small sizes (:data:`SMALL`), with ``overrides``."""
    return params(chapter, **{**SMALL[chapter], **overrides})


# --------------------------------------------------------------------------------------------------
# distributed-estimation: the independent numbers the chapter's claims are read against
# --------------------------------------------------------------------------------------------------

#: Figure 2: the graph facts of the two networks.
US = {"n": 4941, "m": 6594, "beta_star": 0.9998575, "lambda_n": -0.95727, "a_max": 0.5, "connected": True}
GERMAN = {"n": 969, "m": 13236, "beta_star": 0.990181, "lambda_n": -0.19572, "a_max": 1 / 9,
          "connected": True}  # fmt: skip
#: Figure 4 at the independent numbers: US CoP 12.18 and TE 13.5 at ε = 0.5 against CoD 6.09.
FIG4_US = {"cop": 12.18, "te": 13.5, "cod": 6.09, "signal_cop": 0.016, "weight_share": 1.0}
FIG4_GERMAN = {"cop": 6.0, "cod": 2e-5, "sensitivity_share": 0.999}

# --------------------------------------------------------------------------------------------------
# online-learning
# --------------------------------------------------------------------------------------------------


def kl_bernoulli(q: float, p: float) -> float:
    """D_KL(Ber(q) ‖ Ber(p)), written out."""
    return q * math.log(q / p) + (1 - q) * math.log((1 - q) / (1 - p))


# --------------------------------------------------------------------------------------------------
# recommender-maxsense
# --------------------------------------------------------------------------------------------------

#: The checks each experiment records (whatever the parameters: undefined ones too), by item.
CHECKS = {
    "p002-e0": "keep-0-1 keep-1 keep-3 ldp-pairwise ldp-maxsense ldp-multi-maxsense rated-set-exposed",
    "p002-e1": "thm48-exact thm410-exact lemma-c7",
    "p002-e2": "thm43-bound thm43-one-over-n guess-8 guess-9 guess-10 lemma41 sketch-thm410 sketch-lemma31",
    "p002-e3": "constant-50 constant-100 constant-200 eps-ratio n-log-n nondegenerate",
    "p002-e4": "collapse slope-n slope-w slope-eps below above prediction means-fast means-subset means-gap "
    "thm51-sufficient exact-50-10 exact-50-5",
    "p002-e5": "full-w quarter-w scarce exponent-nonprivate exponent-private-rated exponent-private-agree "
    "symmetric three-prediction three-sufficient three-pairwise",
    "p002-e6": "gain-32 no-gain-2 gain-8 prediction per-user-below",
    "p002-e7": "formula-unconstrained formula-average-bit formula-point-query formula-adaptive adaptive-64 "
    "adaptive-128 adaptive-256 fano",
    "p002-e8": "lemma64 above-bounds",
    "p002-e9": "gaussian-ratio thm-a5",
    "p002-e10": "ratings users movies scale prediction thm51-scale",
}
