"""Chapter 7, ``recommender-maxsense``: private item clustering, Pairwise-Preference, MaxSense (002)."""

from __future__ import annotations

from dpnet.params import COMMON, Param, Schema, budgets, choice, integer, list_of, real

__all__ = ["SCHEMA"]


SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter"),
        "n_items": Param(
            list_of(integer(ge=20, le=2000), min_len=2),
            "item counts N of the scaling sweeps (E3, E4)",
            quick=[50, 100, 200],
            full=[50, 100, 200, 400],
        ),
        "ratings_per_user": Param(
            list_of(integer(ge=2, le=50), min_len=2), "ratings per user w of MaxSense's w sweep (N = 100)"
        ),
        "eps_values": Param(
            budgets(),
            "privacy levels ε of the ε sweeps (E3, E4); 'inf' is non-private",
            quick=[0.25, 1.0, 4.0, "inf"],
            full=[0.25, 0.5, 1.0, 2.0, 4.0, "inf"],
        ),
        "theta": Param(
            real(gt=0.0, le=2.0), "MaxSense's sensing constant θ (probes θN/w items; paper: free)"
        ),
        "trials": Param(
            integer(ge=10, le=2000), "runs per point, MaxSense and Multi-MaxSense", quick=40, full=100
        ),
        "pp_trials": Param(integer(ge=5, le=500), "runs per point, Pairwise-Preference", quick=20, full=20),
        "one_bit_trials": Param(
            integer(ge=50, le=100_000), "runs per N of the 1-bit schemes", quick=400, full=2000
        ),
        "exact_simulators": Param(
            choice(True, False), "also run the per-user simulators (E4c, E6)", quick=False, full=True
        ),
    }
)
