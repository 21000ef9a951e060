"""Numbers published in the papers, for checking the companion's results against them.

Each constant cites where it comes from. These are the papers' outputs (read off their figures or
text), never the companion's: the chapters compare what they compute against them and record the
outcome for the reproducibility report.

One module per chapter: :mod:`~dpnet.reference.dilemma` (Figures 1–2),
:mod:`~dpnet.reference.complexity` (Tables 1–2), :mod:`~dpnet.reference.clinical` (Figures 3, 4, 14.x and
the §5 tests), :mod:`~dpnet.reference.identification` (Figures 5, 6, 14.2),
:mod:`~dpnet.reference.online` (Figures 14.1c, 14.6),
:mod:`~dpnet.reference.estimation` (paper 001), :mod:`~dpnet.reference.recommender` (paper 002),
:mod:`~dpnet.reference.funcpert` (paper 004), :mod:`~dpnet.reference.privacy_audit` (Chapter 9, the audits).
Each name lives in its module (``dpnet.reference.dilemma.FIG1_N``); this package only gathers the
modules.
"""

from __future__ import annotations

from dpnet.reference import (
    catalogue,
    clinical,
    complexity,
    dilemma,
    estimation,
    funcpert,
    identification,
    online,
    privacy_audit,
    recommender,
)

__all__ = [
    "catalogue",
    "clinical",
    "complexity",
    "dilemma",
    "estimation",
    "funcpert",
    "identification",
    "online",
    "privacy_audit",
    "recommender",
]
