"""Chapter 9, ``privacy-audit``: auditing every privacy guarantee of the five papers on their own data.

The chapter's parameters (:data:`SCHEMA`) and its items, one module per paper's mechanisms:
:mod:`~dpnet.chapters.privacy_audit.p003_sec2_audit` (randomized response and Laplace noise on the
log-likelihood ratio), :mod:`~dpnet.chapters.privacy_audit.p003_sec12_audit` (Laplace noise on the Cox
log-likelihoods of the centres, offline and streamed), :mod:`~dpnet.chapters.privacy_audit.p001_audit`
(Signal and Network DP, global and smooth sensitivity), :mod:`~dpnet.chapters.privacy_audit.p002_audit`
(the recommender's bits), :mod:`~dpnet.chapters.privacy_audit.p004_audit` (functional perturbation and
the message baseline), and :mod:`~dpnet.chapters.privacy_audit.summary` (the table and the cross-paper
figure). Each item measures the sensitivity on the data (:mod:`dpnet.audit`), the ε the noise buys, and
an empirical lower bound from sampling audits run through :func:`dpnet.sweep.sweep`, and checks them
with :mod:`dpnet.reference.privacy_audit`.

The footprint adds up the items' ``cost`` terms beside ``15`` fixed seconds (the kernel, the imports, the
figures). On this 2-core machine the quick chapter took 21 s with the machine nearly idle and 64 s under
heavy load from other work; the benchmark ``benchmarks/bench_privacy_audit.py`` times both modes. The
sampling audits run at the family-wise ``confidence`` over all
``FAMILY_ROWS`` rows (Bonferroni).
"""

from __future__ import annotations

from dpnet.chapters._items import footprint
from dpnet.chapters.privacy_audit._common import FAMILY_ROWS, NO_SENSITIVITY, ItemAudit
from dpnet.chapters.privacy_audit.p001_audit import p001_audit
from dpnet.chapters.privacy_audit.p002_audit import p002_audit
from dpnet.chapters.privacy_audit.p003_sec2_audit import sec2_audit
from dpnet.chapters.privacy_audit.p003_sec12_audit import sec12_audit
from dpnet.chapters.privacy_audit.p004_audit import p004_audit
from dpnet.chapters.privacy_audit.summary import Summary, audit_figure, summary
from dpnet.params import AS_DEFAULT, COMMON, Param, Schema, integer, real
from dpnet.reference import clinical

__all__ = [
    "FAMILY_ROWS",
    "NO_SENSITIVITY",
    "SCHEMA",
    "ItemAudit",
    "Summary",
    "audit_figure",
    "p001_audit",
    "p002_audit",
    "p004_audit",
    "sec2_audit",
    "sec12_audit",
    "summary",
]

#: What no item accounts for: the kernel, the imports and the figures.
_FIXED_SECONDS = 15.0

#: The chapter's parameters, each declared once (:class:`~dpnet.params.Schema`).
SCHEMA = Schema(
    {
        **COMMON,
        "seed": Param(integer(ge=0), "seed of every sampling audit and run of the chapter", default=20261128),
        # paper 003's ACTG 175 runs use ε = 1 (the budget of the independent hand computations)
        "eps": Param(
            real(gt=0.0, le=20.0),
            "ε of the mechanisms whose paper leaves it to the run (003, 002, 004, 001's global rows)",
            default=clinical.ACTG_RUN["eps"], paper=AS_DEFAULT,
        ),
        # p = 0.7 is one of the accuracies of paper 003's Figure 1 (dpnet.reference.dilemma.FIG1_P)
        "p": Param(
            real(gt=0.5, lt=1.0), "signal accuracy p of paper 003 §2", default=0.7, paper=AS_DEFAULT
        ),
        # the period of paper 003's ACTG 175 stream, Chapter 5's PAPER_PERIOD_DAYS
        "period_days": Param(
            real(ge=1.0, le=365.0), "period of the ACTG 175 stream (§4.3), days", default=10.0,
            paper=AS_DEFAULT,
        ),
        "draws": Param(
            integer(ge=1000, le=5_000_000), "draws per input of each one- or two-coordinate sampling audit",
            quick=200_000, full=1_000_000,
        ),
        "vector_draws": Param(
            integer(ge=1000, le=500_000), "draws per input of each many-coordinate sampling audit (004)",
            quick=10_000, full=50_000,
        ),
        "confidence": Param(
            real(gt=0.5, lt=1.0),
            "family-wise confidence of all the sampling audits at once (each row at 1 − (1 − c)/30)",
            default=0.95,
        ),
        "n_agents": Param(
            integer(ge=2, le=200), "agents of paper 004's quadratics (Chapter 8's)", default=10
        ),
        "basis_order": Param(integer(ge=3, le=60), "truncation K of the functional mechanism", default=20),
        "message_runs": Param(
            integer(ge=1, le=2000), "runs of the unprojected message scheme (004)", quick=50, full=200
        ),
        "data_seed": Param(integer(ge=0), "seed of the synthetic signals and agents' data (Chapters 6, 8)",
                           default=0),
    },
    footprint=footprint(__name__, seconds=_FIXED_SECONDS, memory=0.0),
)  # fmt: skip
