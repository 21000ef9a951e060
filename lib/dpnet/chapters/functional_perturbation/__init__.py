"""Chapter 8, ``functional-perturbation``: private distributed convex optimisation by functional
perturbation (paper 004, Nozari, Tallapragada & Cortés, from the first author's talk slides).

The chapter's parameters (:data:`SCHEMA`) and its experiments E0–E7, the book's own design: the slides
publish no figure or number to match. Each experiment is a module named for its catalogue item
(:mod:`~dpnet.chapters.functional_perturbation.p004_e3` for E3, with its truncation study in
:mod:`~dpnet.chapters.functional_perturbation.p004_e3_truncation`); the agents' problems
(:mod:`~dpnet.chapters.functional_perturbation.problems`) and the summary of the metrics
(:mod:`~dpnet.chapters.functional_perturbation.summary`) have their own. Each experiment takes the
resolved parameters (and the agents' problems), computes with :mod:`dpnet.funcpert`, checks the
outcome with :mod:`dpnet.reference.funcpert`, and returns a small frozen dataclass that the chapter
records (:meth:`dpnet.results.Results.record`), tabulates and plots. Every choice the slides leave
open is a module constant and an entry of the book's reproduction notes (``note-fp-…``).

The footprint adds up the modules' ``cost`` terms, beside ``30`` fixed seconds (the kernel, the
problems, E0–E2 with their audits, E7's sensitivities at degrees 14 and 18 and its audit, the figures)
and nothing held throughout: its memory is the largest of the impossibility demonstration (E6), a 2-D
run's basis (E4, E7) and the message schedules run side by side (E6, E7). With other jobs on this 2-core
machine (a load of about 10), the quick chapter took 52 s of processor time (estimate 66 s) and the full
chapter 118 s (estimate 185 s); the truncation study added about 7 s to the full run.
"""

from __future__ import annotations

from dpnet.chapters._items import footprint
from dpnet.chapters.functional_perturbation.p004_e0 import E0_DRAWS, ErrorRegion, hypothesis_testing
from dpnet.chapters.functional_perturbation.p004_e1 import E1_DRAWS, Anatomy, anatomy
from dpnet.chapters.functional_perturbation.p004_e2 import Calibration, calibration
from dpnet.chapters.functional_perturbation.p004_e3 import LINEAR_DRAWS_PER_RUN, Tradeoff, tradeoff
from dpnet.chapters.functional_perturbation.p004_e3_truncation import TRUNCATION_EPS, Truncation, truncation
from dpnet.chapters.functional_perturbation.p004_e4 import EPS_2D, CaseStudy, case_study
from dpnet.chapters.functional_perturbation.p004_e5 import Distributed, distributed
from dpnet.chapters.functional_perturbation.p004_e6 import MessagePerturbation, message_perturbation
from dpnet.chapters.functional_perturbation.p004_e7 import E7_AUDIT_DRAWS, RecordLevel, record_level
from dpnet.chapters.functional_perturbation.problems import Setup, problems
from dpnet.chapters.functional_perturbation.summary import Summary, summary
from dpnet.params import COMMON, Param, Schema, eps_grid, integer, list_of, real

__all__ = [
    "E0_DRAWS",
    "E1_DRAWS",
    "E7_AUDIT_DRAWS",
    "EPS_2D",
    "LINEAR_DRAWS_PER_RUN",
    "SCHEMA",
    "TRUNCATION_EPS",
    "Anatomy",
    "Calibration",
    "CaseStudy",
    "Distributed",
    "ErrorRegion",
    "MessagePerturbation",
    "RecordLevel",
    "Setup",
    "Summary",
    "Tradeoff",
    "Truncation",
    "anatomy",
    "calibration",
    "case_study",
    "distributed",
    "hypothesis_testing",
    "message_perturbation",
    "problems",
    "record_level",
    "summary",
    "tradeoff",
    "truncation",
]

#: What no experiment accounts for: the kernel, the problems, E0–E2, E7's sensitivities at degrees 14
#: and 18, and the figures.
_FIXED_SECONDS = 30.0

#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every noise draw in the chapter", default=20160706),
        "n_agents": Param(integer(ge=2, le=200), "agents n (a choice: the slides give none)", default=10),
        "basis_order": Param(integer(ge=3, le=60), "basis functions K of the 1-D problems", default=20),
        "degree_2d": Param(
            integer(ge=4, le=18), "total degree M of the 2-D basis (K = (M+1)(M+2)/2)", default=10
        ),
        "q": Param(list_of(real(gt=1.0, le=8.0)), "adjacency exponents q (p = q/2)", default=[1.5, 2.0, 4.0]),
        "eps_values": Param(
            eps_grid(allow_zero=False), "privacy levels ε of the 1-D trade-off (E3)",
            default=[0.1, 0.316, 1.0, 3.16, 10.0, 31.6, 100.0, 316.0, 1000.0],
        ),
        "runs": Param(integer(ge=5, le=2000), "noise draws per (q, ε), 1-D", quick=20, full=100),
        "truncation_runs": Param(
            integer(ge=2, le=500), "noise draws per q of the truncation study, 1-D (E3)", quick=10, full=40
        ),
        "runs_2d": Param(integer(ge=2, le=500), "noise draws per ε, 2-D logistic", quick=5, full=20),
        "impossibility_runs": Param(
            integer(ge=100, le=20_000), "runs of the message-perturbation demonstration (E6)", quick=1000,
            full=4000,
        ),
        "dgd_iterations": Param(
            integer(ge=100, le=50_000), "iterations of the distributed gradient method (E5)", quick=2500,
            full=5000,
        ),
        "message_runs": Param(
            integer(ge=5, le=1000), "runs per schedule and ε of message perturbation (E6, E7)", quick=5,
            full=50,
        ),
        "data_seed": Param(integer(ge=0), "seed of the agents' data, kept apart from the noise", default=0),
    },
    # the integer keys that seeded each experiment's draws before the streams had names
    streams={
        "p004-e1": (1,),
        "p004-e2": (2,),
        "p004-e3": (3,),
        "p004-e4": (4,),
        "p004-e4/boundaries": (5,),
        "p004-e5": (6,),
        "p004-e6/floor-short": (6, 0),
        "p004-e6/floor-long": (6, 1),
        "p004-e6/tuned": (6, 2),
        "p004-e6/impossibility": (6, 3),
        "p004-e6/floor-shifted": (6, 4),
        "p004-e7/functional": (7, 0),
        "p004-e7/messages": (7, 1),
    },
    footprint=footprint(__name__, seconds=_FIXED_SECONDS, memory=0.0),
)  # fmt: skip
