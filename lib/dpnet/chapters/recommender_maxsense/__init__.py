"""Chapter 7, ``recommender-maxsense``: private item clustering, Pairwise-Preference and MaxSense (paper
002, Banerjee, Hegde & Massoulié).

The paper is a theory paper with no numerical figure: its results are sample-complexity theorems. The
chapter turns each into an experiment, E0–E10, the book's own design. This package holds the chapter's
parameters (:data:`SCHEMA`) and one module per experiment (``p002_e0`` … ``p002_e10``, E4 in three:
``p002_e4``, ``p002_e4_means`` and ``p002_e4_theta``, E5 in two: ``p002_e5`` and ``p002_e5_three``), plus
the book's summary (``fitted_exponents``).
Each experiment function takes the resolved parameters, computes with :mod:`dpnet.recommender`, checks
the outcome with :mod:`dpnet.reference.recommender` (the ranges the book fixed before running this
implementation), and returns a small frozen dataclass that the chapter records
(:meth:`dpnet.results.Results.record`), tabulates and plots. The package re-exports them, so the
chapter calls ``chapter.mechanism(P)``.

Every random draw comes from a named stream of the chapter's seed (``SCHEMA.streams``): each Monte
Carlo sweep has its own, and a cell of a sweep (setting ``s``, grid point ``j``) draws from the child
``(s, j)``. The streams that seeded the published runs keep their integer keys, so naming them changed
no number. The book's choices where the paper is silent are module constants of the item modules and
entries of the reproduction notes (``note-rec-…``).

The footprint (``dpnet.chapters._items.footprint``) adds up the items' cost terms: their seconds on
one core, plus 32 s for the kernel, the closed-form experiments and enumerations (E0–E2, E8's Lemma 6.4,
E9), the MovieLens fit and the figures; and 300 MB of simulator chunks and libraries plus the largest
``N × N`` matrix of Pairwise-Preference's recoveries (E3, E5, E10).
"""

from __future__ import annotations

from dpnet import recommender as rc
from dpnet.chapters._items import footprint
from dpnet.chapters.recommender_maxsense.fitted_exponents import Summary, U90Record, summary
from dpnet.chapters.recommender_maxsense.p002_e0 import Mechanism, mechanism
from dpnet.chapters.recommender_maxsense.p002_e1 import LowerBounds, lower_bounds
from dpnet.chapters.recommender_maxsense.p002_e2 import Information, information
from dpnet.chapters.recommender_maxsense.p002_e3 import PairwiseRich, pairwise_rich
from dpnet.chapters.recommender_maxsense.p002_e4 import ScarceMaxSense, maxsense_scarce
from dpnet.chapters.recommender_maxsense.p002_e4_theta import SensingConstant, sensing_constant
from dpnet.chapters.recommender_maxsense.p002_e5 import RichVsScarce, rich_vs_scarce
from dpnet.chapters.recommender_maxsense.p002_e5_three import ThreeClusters, three_clusters
from dpnet.chapters.recommender_maxsense.p002_e6 import MultiMaxSense, multi_maxsense
from dpnet.chapters.recommender_maxsense.p002_e7 import OneBit, one_bit
from dpnet.chapters.recommender_maxsense.p002_e8 import Adaptive, adaptive
from dpnet.chapters.recommender_maxsense.p002_e9 import Distortion, distortion
from dpnet.chapters.recommender_maxsense.p002_e10 import MovieLens, movielens
from dpnet.params import COMMON, Param, Schema, budgets, choice, integer, list_of, real

__all__ = [
    "SCHEMA",
    "Adaptive",
    "Distortion",
    "Information",
    "LowerBounds",
    "Mechanism",
    "MovieLens",
    "MultiMaxSense",
    "OneBit",
    "PairwiseRich",
    "RichVsScarce",
    "ScarceMaxSense",
    "SensingConstant",
    "Summary",
    "ThreeClusters",
    "U90Record",
    "adaptive",
    "distortion",
    "information",
    "lower_bounds",
    "maxsense_scarce",
    "mechanism",
    "movielens",
    "multi_maxsense",
    "one_bit",
    "pairwise_rich",
    "rich_vs_scarce",
    "sensing_constant",
    "summary",
    "three_clusters",
]

#: What no item accounts for: the kernel, E0–E2, E8's Lemma 6.4, E9, the MovieLens fit and the figures
#: (seconds, one core).
FIXED_SECONDS = 32.0
#: What the run holds throughout: simulator chunks and libraries (bytes).
BASE_MEMORY = 3e8

#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every random draw in the chapter", default=20120612),
        "n_items": Param(
            list_of(integer(ge=20, le=2000), min_len=2),
            "item counts N of the scaling sweeps (E3, E4)",
            quick=[50, 100, 200],
            full=[50, 100, 200, 400],
        ),
        "ratings_per_user": Param(
            list_of(integer(ge=2, le=50), min_len=2),
            "ratings per user w of MaxSense's w sweep (N = 100)",
            default=[5, 10, 20],
        ),
        "eps_values": Param(
            budgets(),
            "privacy levels ε of the ε sweeps (E3, E4); 'inf' is non-private",
            quick=[0.25, 1.0, 4.0, "inf"],
            full=[0.25, 0.5, 1.0, 2.0, 4.0, "inf"],
        ),
        "theta": Param(
            real(gt=0.0, le=2.0),
            "MaxSense's sensing constant θ (probes θN/w items; paper: free)",
            default=1.0,
        ),
        "trials": Param(
            integer(ge=10, le=2000), "runs per point, MaxSense and Multi-MaxSense", quick=40, full=100
        ),
        "pp_trials": Param(integer(ge=5, le=500), "runs per point, Pairwise-Preference", quick=20, full=20),
        "one_bit_trials": Param(
            integer(ge=50, le=100_000), "runs per N of the 1-bit schemes", quick=400, full=2000
        ),
        "exact_simulators": Param(
            choice(True, False),
            "also run the exact w-subset simulator of MaxSense (E4c)",
            quick=False,
            full=True,
        ),
        "movielens_items": Param(
            integer(ge=20, le=400), "most-rated MovieLens movies N kept for the fit (E10)", default=100
        ),
        "movielens_eps": Param(
            budgets(),
            "privacy levels ε of the semi-synthetic comparison (E10)",
            quick=[1.0, 4.0],
            full=[1.0, 2.0, 4.0],
        ),
        "movielens_trials": Param(
            integer(ge=5, le=500), "runs per point of Pairwise-Preference in E10", quick=6, full=20
        ),
    },
    footprint=footprint(__name__, seconds=FIXED_SECONDS, memory=BASE_MEMORY),
    # the integer keys that seeded each experiment's draws before the streams had names
    streams={
        "p002-e0": (0,),
        "p002-e2": (2,),
        "p002-e3": (11,),
        "p002-e4": (12,),
        "p002-e4/transition": (13,),
        "p002-e4/theta": (14,),
        "p002-e4/exact-fast": (15,),
        "p002-e4/exact-subset": (16,),
        "p002-e4/means-fast": (4, 0),
        "p002-e4/means-subset": (4, 1),
        "p002-e5/pairwise": (17,),
        "p002-e5/maxsense": (18,),
        "p002-e5/exponent": (19,),
        "p002-e5/symmetric": (20,),
        "p002-e6": (21,),
        "p002-e6/per-user": (23,),
        **{f"p002-e7/{scheme}": (7, j) for j, scheme in enumerate(rc.SCHEMES)},
        "p002-e8": (24,),
    },
)
