"""The catalogue: every figure, table and experiment of the papers that the book sets out to reproduce.

Each item has one key (``p003-fig5``) that names it everywhere: the figure's file
(``figures/p003-fig5.png``), its MyST label, its caption's prefix ("Paper 003, Figure 5") and its row
in the reproducibility report. Papers are numbered as in the book's introduction: 003 and 000
(Part I), 001 (Part II), 002 (Part III), 004 (Part IV).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CATALOGUE", "ITEMS", "Item", "is_item_key", "item_key"]

_WORDS = {"Fig": "Figure", "Table": "Table"}


def item_key(paper: str, name: str) -> str:
    """The key of item ``name`` of ``paper``: ``("003", "Fig 14.1a-b")`` → ``"p003-fig14-1a-b"``.

    Lower case letters, digits and hyphens, starting with a letter: a key is also a valid HTML anchor.
    """
    slug = name.replace("§", "sec").replace(".", "-").lower()
    slug = re.sub(r"[^a-z0-9-]+", "-", re.sub(r"^(fig|table) ", r"\1", slug)).strip("-")
    return f"p{paper}-{slug}"


def is_item_key(name: str) -> bool:
    """True when ``name`` has the form of an item key (``p`` and three digits, then a hyphen)."""
    return re.match(r"p\d{3}-", name) is not None


@dataclass(frozen=True)
class Item:
    """A published figure, table or (for papers without figures) planned experiment."""

    paper: str
    name: str
    title: str
    chapter: str

    @property
    def key(self) -> str:
        """The item's one name: file name, label, report row (:func:`item_key`)."""
        return item_key(self.paper, self.name)

    @property
    def caption(self) -> str:
        """Whose item this is, as a caption starts: ``"Paper 003, Figure 5"``."""
        head, _, rest = self.name.partition(" ")
        word = _WORDS.get(head)
        if word is None and re.fullmatch(r"E\d+", self.name):
            return f"Paper {self.paper}, the book's experiment {self.name}"
        return f"Paper {self.paper}, {word} {rest}" if word and rest else f"Paper {self.paper}, {self.name}"


def _items(paper: str, chapter: str, entries: list[tuple[str, str]]) -> list[Item]:
    return [Item(paper, name, title, chapter) for name, title in entries]


CATALOGUE: tuple[Item, ...] = (
    *_items("003", "power-tradeoff", [
        ("Fig 1", "Randomized-response power and critical budget ε*"),
        ("Fig 2", "Laplace-mechanism power and critical budget ε*"),
    ]),
    *_items("003", "distributed-mle", [("Table 1", "Communication complexity of the private algorithms")]),
    *_items("000", "distributed-mle", [("Table 2", "Summary of estimators (earlier version)")]),
    *_items("003", "hypothesis-testing", [
        ("Fig 3", "ACTG 175 ZDV vs ddI: Kaplan–Meier curves and log hazard ratio"),
        ("Fig 4", "ACTG 175 all four arms: Kaplan–Meier curves and log hazard ratios"),
        ("Fig 14.1a-b", "ACTG 175 AM/GM and two-threshold beliefs and TVD"),
        ("§5 tests", "Private distributed hypothesis tests on ACTG 175 and their p-values"),
        ("Fig 14.3", "Cancer cohort: Kaplan–Meier curves by TMB group and Cox fits"),
        ("Fig 14.4", "Cancer cohort: AM/GM beliefs"),
        ("Fig 14.5", "Cancer cohort: two-threshold beliefs"),
    ]),
    *_items("003", "treatment-identification", [
        ("Fig 5", "Best-treatment identification over the four ACTG arms"),
        ("Fig 6", "TVD vs ε against the first-order DP baseline"),
        ("Fig 14.2", "Runtime vs number of providers"),
    ]),
    *_items("003", "online-learning", [
        ("§4.3", "Online learning: time-averaged limit, Cesàro averaging of the noise, horizon of Thm 4.7"),
        ("Fig 14.1c", "ACTG 175 private online learning"),
        ("Fig 14.6", "Cancer cohort private online learning"),
    ]),
    *_items("001", "distributed-estimation", [
        ("Table 1", "Total-error bounds, Signal/Network DP × MVUE/OL"),
        ("Fig 2", "Data overview: consumption distribution and the two networks"),
        ("Fig 3", "Sample paths, MVUE with Signal DP"),
        ("Fig 4", "Sample paths, MVUE with Network DP"),
        ("Fig 5", "Sample paths, online learning with Signal DP"),
        ("Fig 6", "Sample paths, online learning with Network DP"),
        ("Fig 7", "Final error vs privacy budget"),
    ]),
    *_items("002", "recommender-maxsense", [
        ("E0", "Mechanism checks"),
        ("E1", "Lower-bound curves vs N and w"),
        ("E2", "Exact mutual information"),
        ("E3", "Pairwise-Preference phase transition (information-rich)"),
        ("E4", "MaxSense phase transition (information-scarce)"),
        ("E5", "Rich vs scarce crossover"),
        ("E6", "Multi-MaxSense vs MaxSense across ε"),
        ("E7", "1-bit sketches"),
        ("E8", "Adaptive lower bound"),
        ("E9", "Distortion vs exact recovery"),
        ("E10", "MovieLens 100k, semi-synthetic"),
    ]),
    *_items("004", "functional-perturbation", [
        ("E0", "Hypothesis-testing view of ε"),
        ("E1", "Anatomy of the functional mechanism"),
        ("E2", "Calibration"),
        ("E3", "Privacy–accuracy trade-off"),
        ("E4", "2-D logistic regression case study"),
        ("E5", "Distributed execution"),
        ("E6", "Message perturbation: impossibility and baseline"),
        ("E7", "Record-level sensitivity"),
    ]),
)  # fmt: skip

#: Items by key.
ITEMS: dict[str, Item] = {item.key: item for item in CATALOGUE}
