"""The per-chapter layer: each chapter's parameters, random streams and experiments.

One package per chapter (``dpnet.chapters.power_tradeoff`` for chapter id ``power-tradeoff``). Its
``__init__`` holds the chapter's :class:`~dpnet.params.Schema` (``SCHEMA``, every parameter declared
once) and re-exports its experiments. Inside, one module per catalogue item the chapter covers, named
for the item's key (``p003_fig1`` for ``p003-fig1``), and one per experiment of the book's own: each
holds the item's constants, its cost term for the chapter's footprint, its result type with its plots
(a :class:`~dpnet.results.Recordable`), its experiment, a function of the resolved parameters that
computes with the topic modules (:mod:`dpnet.power`, :mod:`dpnet.inference`, …), and the calls that
build its checks with :mod:`dpnet.reference`. What several items share is in the package's
``_common``. This layer sits above the topics and the reference numbers and below the runner
(:mod:`dpnet.book`); nothing below imports it.

A chapter notebook starts with::

    P, results = chapters.start("power-tradeoff", globals())

which resolves the parameters its namespace defines (filling every default), and opens the
:class:`~dpnet.results.Results` the chapter records into.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from dpnet.errors import ParameterError
from dpnet.params import COMMON, Param, Parameters, Schema, from_namespace, integer
from dpnet.params import resolve as resolve_schema
from dpnet.reference.catalogue import CATALOGUE
from dpnet.results import Results

__all__ = ["CHAPTER_IDS", "resolve", "schema", "start"]

#: The chapter ids, in book order (the report last).
CHAPTER_IDS: tuple[str, ...] = (
    "power-tradeoff",
    "distributed-mle",
    "hypothesis-testing",
    "treatment-identification",
    "online-learning",
    "distributed-estimation",
    "recommender-maxsense",
    "functional-perturbation",
    "privacy-audit",
    "reproducibility",
)

_REPORT = Schema({**COMMON, "seed": Param(integer(ge=0), "unused: the report draws nothing", default=0)})


def schema(chapter_id: str) -> Schema:
    """The schema of a chapter, or an error listing the known chapter ids."""
    if chapter_id == "reproducibility":
        return _REPORT
    if chapter_id not in CHAPTER_IDS:
        raise ParameterError(f"unknown chapter id {chapter_id!r}; known chapters: {', '.join(CHAPTER_IDS)}")
    module = importlib.import_module(f"dpnet.chapters.{chapter_id.replace('-', '_')}")
    return module.SCHEMA


def resolve(chapter_id: str, values: Mapping[str, Any]) -> Parameters:
    """Validate a chapter's parameters and fill the defaults of those left out (see :mod:`dpnet.params`)."""
    return resolve_schema(schema(chapter_id), values, chapter_id)


def start(chapter_id: str, namespace: Mapping[str, Any]) -> tuple[Parameters, Results]:
    """Resolve the parameters a notebook's namespace defines and open the chapter's results."""
    P = from_namespace(schema(chapter_id), namespace, chapter_id)
    items = [item for item in CATALOGUE if item.chapter == chapter_id]
    headlines = {item.key: item.check for item in items}
    return P, Results(chapter_id, P, items=[item.key for item in items], headlines=headlines)
