"""Private distributed estimation and online learning of expected values (paper 001).

* :mod:`~dpnet.estimation.datasets`: the US power grid and the German-households stand-in;
* :mod:`~dpnet.estimation.privacy`: Laplace scales from global and smooth sensitivity, two calibrations;
* :mod:`~dpnet.estimation.guarantee`: what the smooth-sensitivity release guarantees, measured on signals;
* :mod:`~dpnet.estimation.dynamics`: Algorithms 1–5 with their non-private twins (sparse, vectorised);
* :mod:`~dpnet.estimation.moments`: exact second moments and the bounds of Theorems 3.1, 4.1, 4.2;
* :mod:`~dpnet.estimation.spectrum`: ``β*``, neighbour weights and mixing sums of a network;
* :mod:`~dpnet.estimation.rates`: fitted log–log slopes and geometric rates;
* :mod:`~dpnet.estimation.optimal_noise`: Laplace noise under eq. 9, and the staircase under ε-DP;
* :mod:`~dpnet.estimation.experiments`: the four mechanisms of the figures and error against ε.
"""

from dpnet.estimation.datasets import (
    DATASETS,
    EstimationData,
    german_households,
    load_dataset,
    lognormal_fit,
    read_dl_edgelist,
    us_power_grid,
)
from dpnet.estimation.dynamics import ALGORITHMS, Run, propagate, simulate
from dpnet.estimation.experiments import (
    MECHANISMS,
    REFERENCES,
    error_summary,
    error_vs_epsilon,
    exact_rms_error,
    located_noise_errors,
    moment_study,
    ol_signal_rms_paths,
    private_run,
    reference_value,
)
from dpnet.estimation.guarantee import (
    GuaranteeProfile,
    below_local_budget,
    guarantee_profile,
    guarantee_profiles,
    laplace_hockey_stick,
    local_sensitivity,
    location_budget,
    release_delta,
    smoothness_threshold,
)
from dpnet.estimation.moments import (
    decentralisation_curve,
    mvue_cop_rms,
    mvue_moments,
    mvue_noise_gains,
    naive_noise_moment,
    ol_network_moments,
    ol_signal_moments,
    theorem31_bound,
    theorem41_bound,
    theorem42_bound,
)
from dpnet.estimation.optimal_noise import (
    NoiseDensity,
    noise_densities,
    staircase_density,
    staircase_gamma,
    staircase_variance,
    worst_log_ratio,
)
from dpnet.estimation.privacy import (
    CALIBRATIONS,
    laplace_scales,
    sensitivity_sets_scale,
    smooth_scales,
    smooth_sensitivity,
)
from dpnet.estimation.rates import geometric_rate, loglog_slope, loglog_slope_se
from dpnet.estimation.spectrum import GraphFacts, graph_facts
from dpnet.networks import neighbour_weights

__all__ = [
    "ALGORITHMS",
    "CALIBRATIONS",
    "DATASETS",
    "MECHANISMS",
    "REFERENCES",
    "EstimationData",
    "GraphFacts",
    "GuaranteeProfile",
    "NoiseDensity",
    "Run",
    "below_local_budget",
    "decentralisation_curve",
    "error_summary",
    "error_vs_epsilon",
    "exact_rms_error",
    "geometric_rate",
    "german_households",
    "graph_facts",
    "guarantee_profile",
    "guarantee_profiles",
    "laplace_hockey_stick",
    "laplace_scales",
    "load_dataset",
    "local_sensitivity",
    "located_noise_errors",
    "location_budget",
    "loglog_slope",
    "loglog_slope_se",
    "lognormal_fit",
    "moment_study",
    "mvue_cop_rms",
    "mvue_moments",
    "mvue_noise_gains",
    "naive_noise_moment",
    "neighbour_weights",
    "noise_densities",
    "ol_network_moments",
    "ol_signal_moments",
    "ol_signal_rms_paths",
    "private_run",
    "propagate",
    "read_dl_edgelist",
    "reference_value",
    "release_delta",
    "sensitivity_sets_scale",
    "simulate",
    "smooth_scales",
    "smooth_sensitivity",
    "smoothness_threshold",
    "staircase_density",
    "staircase_gamma",
    "staircase_variance",
    "theorem31_bound",
    "theorem41_bound",
    "theorem42_bound",
    "us_power_grid",
    "worst_log_ratio",
]
