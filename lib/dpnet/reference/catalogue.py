"""The catalogue: every figure, table and experiment of the papers that the book sets out to reproduce.

Each item has one key (``p003-fig5``) that names it everywhere: the figure's file
(``figures/p003-fig5.png``), its MyST label, its caption's prefix ("Paper 003, Figure 5") and its row
in the reproducibility report. Papers are numbered as in the book's introduction: 003 and 000
(Part I), 001 (Part II), 002 (Part III), 004 (Part IV); the audits of all five papers' guarantees are Part V.

Each item names its **headline**: the one claim of the paper the item exists to support, in one
sentence, and the name of the check that tests it under the paper's own mathematics. The report calls
an item "reproduced" only when that check passes, and prints the claim beside the status. The items of
a chapter are listed in its reference module (``dilemma.ITEMS`` for Chapter 1), beside the published
numbers they are checked against; this module gathers them in book order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dpnet.reference import (
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

__all__ = ["CATALOGUE", "ITEMS", "Item", "is_item_key", "item_key"]

_WORDS = {"Fig": "Figure", "Table": "Table", "Thm": "Theorem", "Prop": "Proposition", "Cor": "Corollary"}


def item_key(paper: str, name: str) -> str:
    """The key of item ``name`` of ``paper``: ``("003", "Fig 14.1a-b")`` → ``"p003-fig14-1a-b"``.

    Lower case letters, digits and hyphens, starting with a letter: a key is also a valid HTML anchor.
    """
    slug = name.replace("§", "sec").replace(".", "-").lower()
    slug = re.sub(r"[^a-z0-9-]+", "-", re.sub(r"^(fig|table|thm|prop|cor) ", r"\1", slug)).strip("-")
    return f"p{paper}-{slug}"


def is_item_key(name: str) -> bool:
    """True when ``name`` has the form of an item key (``p`` and three digits, then a hyphen)."""
    return re.match(r"p\d{3}-", name) is not None


@dataclass(frozen=True)
class Item:
    """A published figure, table or theorem, or (for papers without figures) a planned experiment.

    Attributes
    ----------
    paper, name, title
        Whose item it is, as the paper names it (``"Fig 1"``, ``"Thm 4.7"``, ``"E4"``), and what it shows.
    chapter
        The chapter that reproduces it.
    headline
        The claim of the paper the item exists to support, in one sentence.
    check
        The name of the check that tests the headline under the paper's own mathematics: the item is
        "reproduced" only when it passes.
    """

    paper: str
    name: str
    title: str
    chapter: str
    headline: str = ""
    check: str = ""

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


def _items(chapter: str, entries: tuple[tuple[str, str, str, str, str], ...]) -> list[Item]:
    return [
        Item(paper, name, title, chapter, headline, check) for paper, name, title, headline, check in entries
    ]


CATALOGUE: tuple[Item, ...] = (
    *_items("power-tradeoff", dilemma.ITEMS),
    *_items("distributed-mle", complexity.ITEMS),
    *_items("hypothesis-testing", clinical.ITEMS),
    *_items("treatment-identification", identification.ITEMS),
    *_items("online-learning", online.ITEMS),
    *_items("distributed-estimation", estimation.ITEMS),
    *_items("recommender-maxsense", recommender.ITEMS),
    *_items("functional-perturbation", funcpert.ITEMS),
    *_items("privacy-audit", privacy_audit.ITEMS),
)

#: Items by key.
ITEMS: dict[str, Item] = {item.key: item for item in CATALOGUE}
