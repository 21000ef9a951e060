"""The book's two voices: verdicts on the papers' claims, and statements in the book's own voice.

A chapter binds a sentence whose truth depends on the run to a named check, with one of two roles:

* ``{badge}`item/name``` on a sentence that reports a *paper's* claim ("Theorem 4.7 promises …"). The
  badge is a verdict: ✓ and ✗ are both honest outcomes.
* ``{holds}`item/name``` on a sentence in the *book's own voice* about this run ("the measured
  probability meets the promise"). Such a sentence must hold at the paper's setting: a full-mode run
  at the default parameters whose check fails, or is undefined, is an error that names the chapter,
  the check and the sentence (:func:`contradicted`, raised by the book runner). Under other parameters
  the run may contradict it: the HTML marks the sentence ("this run contradicts this sentence") and the
  build's summary counts such sentences.

This module reads the statements out of a chapter's source and judges them against the checks the
run recorded (``metrics.json``'s ``reproduction``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ROLE", "Statement", "contradicted", "missing_targets", "statements", "verdict"]

#: The role of a statement in the book's own voice: ``{holds}`item/name```.
ROLE = "holds"
_HOLDS = re.compile(r"\{holds\}`([^`]+)`")
_MARKS = re.compile(r"\{(badge|holds)\}`([^`]+)`")
_FENCE = re.compile(r"^(```+|~~~+)")
#: A directive whose body is prose; every other fenced block (code cells, math, code) is skipped.
_PROSE_DIRECTIVE = re.compile(
    r"\{(note|tip|warning|important|seealso|admonition|exercise|solution|solution-start|dropdown|"
    r"prf:\w+|epigraph|margin|sidebar)\}"
)
_LIST_ITEM = re.compile(r"^([-*+]|\d+[.)])\s")
_OTHER_ROLE = re.compile(r"\{[\w:-]+\}`([^`]*)`")
_SENTENCE_END = re.compile(r"(?<=[.!?])[)\]”\"']*\s+(?=[A-Z(“\"$])")


@dataclass(frozen=True)
class Statement:
    """A sentence of a chapter in the book's own voice, bound to a check.

    Attributes
    ----------
    item, name
        The check: ``{holds}`item/name```.
    sentence
        The sentence as the source writes it, roles shown as their targets (for messages).
    line
        Its line in the chapter's source (1-based).
    """

    item: str
    name: str
    sentence: str
    line: int

    @property
    def where(self) -> str:
        """The check as the role names it: ``item/name``."""
        return f"{self.item}/{self.name}"


def _paragraphs(source: str) -> Iterable[tuple[int, str]]:
    """The prose paragraphs of a MyST source, with the line each starts on.

    Code cells, displayed mathematics, plain code blocks and the front matter are left out; the prose
    inside other directives (notes, exercises, solutions) is read, without their option lines.
    """
    lines = source.splitlines()
    start = 0
    if lines and lines[0].strip() == "---":  # front matter
        start = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
    skipping: str | None = None  # the closing fence of a block that is not prose
    prose: list[str] = []  # the fences of the prose directives open around this line
    block: list[str] = []
    first = 0
    for number, raw in enumerate(lines[start:], start=start + 1):
        line = raw.strip()
        if skipping is not None:
            skipping = None if line == skipping else skipping
            continue
        opened = _FENCE.match(line)
        if opened or not line or line.startswith(":") or line.startswith("+++"):
            if block:
                yield first, " ".join(block)
                block = []
            if opened and prose and line == prose[-1]:
                prose.pop()  # the end of a note, an exercise, a solution
            elif opened and _PROSE_DIRECTIVE.match(line[len(opened.group(1)) :]):
                prose.append(opened.group(1))
            elif opened:
                skipping = opened.group(1)
            continue
        if block and _LIST_ITEM.match(line):  # each item of a list is a paragraph of its own
            yield first, " ".join(block)
            block = []
        if not block:
            first = number
        block.append(line)
    if block:
        yield first, " ".join(block)


def _readable(text: str) -> str:
    return _OTHER_ROLE.sub(lambda m: f"‹{m.group(1)}›", text).strip()


def statements(source: str) -> list[Statement]:
    """The sentences of a chapter's MyST source that carry a ``{holds}`` role, in order.

    Parameters
    ----------
    source
        The chapter's source (jupytext MyST markdown).

    Returns
    -------
    list of Statement
        One per role (a sentence with two roles gives two statements).
    """
    found: list[Statement] = []
    for line, paragraph in _paragraphs(source):
        for sentence in _SENTENCE_END.split(paragraph):
            for target in _HOLDS.findall(sentence):
                item, _, name = (part.strip() for part in target.partition("/"))
                found.append(Statement(item, name, _readable(sentence), line))
    return found


def verdict(statement: Statement, metrics: Mapping[str, Any] | None) -> bool | None:
    """Whether the run's check behind ``statement`` holds: True, False, or None when the run did not
    record it or it is undefined for the run's parameters."""
    entry = ((metrics or {}).get("reproduction") or {}).get(statement.item) or {}
    for check in entry.get("checks", ()):
        if check.get("name") == statement.name:
            passed = check.get("passed")
            return None if passed is None else bool(passed)
    return None


def contradicted(
    found: Iterable[Statement], metrics: Mapping[str, Any] | None, *, strict: bool = False
) -> list[Statement]:
    """The statements the run contradicts: their check failed (``strict``: or is undefined, or was not
    recorded, as at the paper's setting, where every statement must be decided and hold)."""
    outcomes = [(s, verdict(s, metrics)) for s in found]
    return [s for s, v in outcomes if v is False or (strict and v is None)]


def missing_targets(source: str, metrics: Mapping[str, Any] | None) -> list[str]:
    """The ``item/name`` of every ``{badge}`` and ``{holds}`` in a chapter's source that names no check
    the run recorded, in order, once each."""
    recorded = {
        f"{item}/{check.get('name')}"
        for item, entry in ((metrics or {}).get("reproduction") or {}).items()
        for check in entry.get("checks", ())
    }
    targets = [
        "/".join(p.strip() for p in target.partition("/")[::2]) for _, target in _MARKS.findall(source)
    ]
    return [t for t in dict.fromkeys(targets) if t not in recorded]
