"""The results contract: what executing a chapter leaves behind.

Executing chapter ``<id>`` writes

* ``results/<id>/metrics.json`` — every number the chapter reports under its own key, plus the
  reserved keys ``chapter``, ``parameters``, ``reproduction`` (the checks behind the
  reproducibility report) and ``deviations`` (from the paper);
* ``results/<id>/figures/<name>.png`` and ``.svg`` — every figure;
* ``results/<id>/tables/<name>.csv`` — every table.

The book runner executes a chapter into a fresh staging directory (``DPNET_RESULTS_DIR``) and swaps
it into place only on success. A notebook run by hand (no ``DPNET_RESULTS_DIR``) writes under
``results/_interactive/<id>`` so that it never mixes with, or overwrites, a build's results.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol, TypeVar, get_args

import numpy as np

from dpnet.errors import ChapterError, ParameterError

#: What a check compares with: a claim the paper publishes, or an independent reference (an exact
#: formula, an independent implementation, the documented facts of a data set).
Against = Literal["paper", "reference"]
AGAINST: tuple[str, ...] = get_args(Against)

__all__ = [
    "BADGES",
    "NAME",
    "RECORDED",
    "Check",
    "Recordable",
    "Results",
    "badge_key",
    "check_label",
    "load_metrics",
    "read_record",
    "repo_root",
    "results_root",
    "to_json",
]

RESERVED = ("chapter", "parameters", "reproduction", "deviations")
#: The badge of a check that holds, fails, or is undefined for the run's parameters.
#: The resolution of a figure's PNG (and of the image a chapter shows)
PNG_DPI = 150
BADGES: dict[bool | None, str] = {True: "✓", False: "✗", None: "–"}
#: What a check's name looks like: lower case letters, digits and hyphens, starting with a letter.
NAME = re.compile(r"[a-z][a-z0-9-]*")
_ITEM_KEY = re.compile(r"p\d{3}-")


class Check(NamedTuple):
    """A comparison of a computed result with a published claim or an independent reference.

    A check is named where it is built, so a badge in the prose (``{badge}`item/name```) finds its
    claim by name, whatever order the checks of an item come in.

    Attributes
    ----------
    claim
        What is compared, as a sentence ("ε*_RR < 1 in every cell (paper §2)").
    passed
        Whether it holds in this run; ``None`` when it is undefined for these parameters.
    detail
        The numbers behind the verdict, or why it is undefined.
    name
        A short name, unique within its item ("below-one"): the check's anchor in the report and the
        name of its badge in the chapter. :meth:`Results.checks` refuses a check without one.
    against
        ``"paper"`` when the check compares with a number or claim the paper publishes (its figures,
        tables, theorems' stated consequences); ``"reference"`` when it compares with an independent
        reference: an exact formula, an independent implementation or a data set's documented facts.
    """

    claim: str
    passed: bool | None
    detail: str = ""
    name: str = ""
    against: Against = "paper"


#: A documented deviation from the paper: ``(item, title, note)``, the note being the label of the
#: reproduction notes' entry that explains it.
Deviation = tuple[str, str, str]


class Recordable(Protocol):
    """What :meth:`Results.record` reads from an experiment's result.

    Every member is required, even when it is empty: a result that misnames one (``table()`` for
    ``tables()``) would otherwise record nothing and say nothing. :meth:`Results.record` refuses a
    result that lacks one, naming it.
    """

    @property
    def checks(self) -> Mapping[str, Sequence[Check]]:
        """The checks of the result, keyed by catalogue item (empty when it checks nothing)."""
        ...

    @property
    def deviations(self) -> Sequence[Deviation]:
        """The documented deviations from the paper the result needed (empty when none)."""
        ...

    @property
    def paper_setting(self) -> bool:
        """Whether the run uses the paper's setting for the result's items."""
        ...

    def metrics(self) -> Mapping[str, Any]:
        """The numbers to record in ``metrics.json``, by name."""
        ...

    def tables(self) -> Mapping[str, Any]:
        """The tables (pandas DataFrames) to write to ``tables/``, by name."""
        ...


#: The members of :class:`Recordable`: attributes, then methods.
RECORDED: tuple[str, ...] = ("checks", "deviations", "paper_setting", "metrics", "tables")
_R = TypeVar("_R", bound=Recordable)


def check_label(item: str, name: str) -> str:
    """The report's anchor of check ``name`` of ``item``: ``check-p003-fig1-below-one``."""
    return f"check-{item}-{name}"


def badge_key(item: str, name: str) -> str:
    """The glue key of the check's badge, pasted by the ``{badge}`item/name``` role."""
    return f"badge-{item}-{name}"


def repo_root() -> Path:
    """The repository root (the directory holding ``_toc.yml``)."""
    return Path(__file__).resolve().parents[2]


def results_root() -> Path:
    """Where chapter results live: ``DPNET_RESULTS_ROOT`` (set by the book runner) or ``results/``."""
    override = os.environ.get("DPNET_RESULTS_ROOT")
    return Path(override) if override else repo_root() / "results"


def to_json(value: Any) -> Any:
    """Convert numpy scalars/arrays and tuples to JSON types; non-finite floats become ``None``."""
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_json(value.tolist())
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer, int)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        x = float(value)
        return x if math.isfinite(x) else None
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"cannot store {type(value).__name__} in metrics.json")


def load_metrics(chapter_id: str, results_dir: Path | None = None) -> dict[str, Any] | None:
    """The metrics of a chapter's last successful run, or ``None`` if it has not run.

    Raises
    ------
    ChapterError
        When the file is there but is not a chapter's metrics (truncated, say), naming the file and the
        remedy: re-run the chapter.
    """
    path = (results_dir or results_root()) / chapter_id / "metrics.json"
    if not path.exists():
        return None
    return read_record(path, chapter_id, dict)


def read_record(path: Path, chapter_id: str, kind: type = dict) -> Any:
    """A JSON file a chapter's run wrote (``metrics.json``, ``fingerprint.json``), checked to be a
    ``kind``.

    Raises
    ------
    ChapterError
        When it cannot be read, is not valid JSON or is not a ``kind``: the message names the file and
        says to re-run the chapter.
    """
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).split(":")[0]
        raise ChapterError(
            f"{path} cannot be read ({why}): re-run the chapter (python -m dpnet.book run {chapter_id})"
        ) from None
    if not isinstance(value, kind):
        raise ChapterError(
            f"{path} holds a JSON {type(value).__name__}, not a chapter's record: re-run the chapter "
            f"(python -m dpnet.book run {chapter_id})"
        )
    return value


class Results:
    """Collects a chapter's numbers, figures, tables and reproduction checks.

    Parameters
    ----------
    chapter_id
        The chapter id (``results/<id>/``).
    parameters
        The chapter's resolved parameters, stored in ``metrics.json``.
    items
        The keys of the catalogue items the chapter covers (``p003-fig1``, …). A figure, table, check
        or deviation recorded under an item key must be one of them (or, for a figure or table, one
        of them followed by ``-<variant>``). ``None`` accepts any key (for tests).
    headlines
        For each item, the name of the check that tests its headline claim: recorded with the item's
        checks (``reproduction[<item>]["headline"]``), for the report.
    """

    def __init__(
        self,
        chapter_id: str,
        parameters: Mapping[str, Any],
        *,
        items: Sequence[str] | None = None,
        headlines: Mapping[str, str] | None = None,
    ) -> None:
        staging = os.environ.get("DPNET_RESULTS_DIR")
        self.chapter_id = chapter_id
        self.items = None if items is None else tuple(items)
        self.headlines = dict(headlines or {})
        self.directory = Path(staging) if staging else results_root() / "_interactive" / chapter_id
        (self.directory / "figures").mkdir(parents=True, exist_ok=True)
        (self.directory / "tables").mkdir(parents=True, exist_ok=True)
        self.metrics: dict[str, Any] = {}
        self.parameters = to_json(dict(parameters))
        self.reproduction: dict[str, dict[str, Any]] = {}
        self.deviations: list[dict[str, str]] = []
        self._tables: dict[str, Any] = {}
        self._save()

    # numbers -------------------------------------------------------------------------------
    def metric(self, name: str, value: Any) -> Any:
        """Record ``value`` under ``name`` in metrics.json and return it unchanged."""
        if name in RESERVED:
            raise ParameterError(f"metric name {name!r} is reserved ({', '.join(RESERVED)})")
        self.metrics[name] = to_json(value)
        self._save()
        return value

    def glue(self, name: str, value: Any, fmt: str | None = None, *, undefined: str | None = None) -> None:
        """Make a number available to the prose (``{glue:text}`name```) and record it as a metric.

        Parameters
        ----------
        name
            The glue key (and metric name).
        value
            A number (or a short string).
        fmt
            A format spec (``".3f"``, ``","``): the value is glued already formatted, so the prose
            writes ``{glue:text}`name``` without one. An exponent is written as a power of ten
            (``".1e"`` glues ``2.5×10⁻¹⁶``, not ``2.5e-16``; :func:`dpnet.formatting.formatted`).
            Without a spec, an integer from 1,000 on is glued with thousands separators
            (``12,721``) and a float whose repr has an exponent as a power of ten (``10⁻⁵``); other
            values as they are.
        undefined
            What the prose shows when the value is not a finite number ("undefined: no crossing on
            the grid"): a few words saying why. Without it, a non-finite value is an error: the
            book never prints nan.

        NumPy scalars are glued as the Python numbers they hold: their repr (``np.float64(0.5)``) is not
        a number that ``{glue:text}`name:.2f``` can format.
        """
        from myst_nb import glue

        from dpnet.formatting import count, formatted, times_ten

        if isinstance(value, np.generic):
            value = value.item()
        finite = not isinstance(value, float) or math.isfinite(value)
        if value is None or not finite:
            if undefined is None:
                raise ValueError(
                    f"glue {name!r}: the value is {value!r}; say why it is undefined (undefined=...)"
                )
            shown: Any = undefined
        else:
            shown = value if fmt is None else formatted(value, fmt)
            if fmt is None and isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 1000:
                shown = count(value)
            elif fmt is None and isinstance(value, float) and "e" in repr(value):
                shown = times_ten(repr(value))
        glue(name, shown, display=False)
        self.metric(name, value)

    def record(self, outcome: _R) -> _R:
        """Record what an experiment returned, and return it unchanged.

        ``outcome`` satisfies :class:`Recordable`: its ``metrics()`` go to metrics.json, its
        ``tables()`` to ``tables/``, its ``checks`` (a mapping of item key to checks) to the report,
        with ``paper_setting`` saying whether the run uses the paper's setting for them, and its
        ``deviations`` (``(item, title, note)``) likewise. A result that lacks one of these members
        is refused with a :class:`TypeError` naming it.
        """
        missing = [
            name
            for name in RECORDED
            if not hasattr(outcome, name) or (name in RECORDED[3:] and not callable(getattr(outcome, name)))
        ]
        if missing:
            raise TypeError(
                f"{type(outcome).__name__} cannot be recorded: it has no {' and no '.join(missing)} "
                f"(a result states {', '.join(RECORDED[:3])}, metrics() and tables(): "
                "dpnet.results.Recordable); define it, empty if there is nothing to record"
            )
        for name, value in outcome.metrics().items():
            self.metric(name, value)
        for name, frame in outcome.tables().items():
            self.table(frame, name)
        for item, checks in outcome.checks.items():
            self.checks(item, checks, paper_setting=outcome.paper_setting)
        for item, title, note in outcome.deviations:
            self.deviation(item, title, note=note)
        return outcome

    # files ---------------------------------------------------------------------------------
    def figure(self, fig: Any, name: str) -> None:
        """Save a Matplotlib figure as ``figures/<name>.png`` and ``.svg``, show it once, and close it.

        ``name`` is also the figure's label in the chapter (``mystnb: figure: name:``): an item key
        (``p003-fig1``), an item key and a variant (``p003-fig2-as-published``), or, for a figure of the
        book's own, a name that does not look like an item key.

        A figure with text smaller than 8 pt as the book shows it (shrunk to the book's column) is
        refused with :class:`dpnet.plotting.LegibilityError`, naming the figure and the text
        (:func:`dpnet.plotting.check_legible`).

        The figure is drawn once for that check, at the PNG's resolution, which also finds the PNG's
        tight extent; then once into the PNG; then into the SVG, after a pass that finds the SVG's own
        tight extent (measured with unhinted text, it can differ from the PNG's). The chapter shows the
        PNG just saved, at the size of the figure's own resolution (``figure.dpi``), rather than
        drawing the figure again.
        """
        from dpnet.plotting import check_legible

        self._check_key(name)
        try:
            extent = check_legible(fig, name, dpi=PNG_DPI)
        except ValueError:
            import matplotlib.pyplot as plt

            plt.close(fig)
            raise
        png = self.directory / "figures" / f"{name}.png"
        fig.savefig(png, dpi=PNG_DPI, bbox_inches=extent, metadata={"Software": None})
        fig.savefig(png.with_suffix(".svg"), bbox_inches="tight", metadata={"Date": None})
        _show(fig, png, width=round(extent.width * fig.dpi))

    def show_table(self, frame: Any, name: str, **options: Any) -> Any:
        """Write ``frame`` to ``tables/<name>.csv`` and return it formatted for the reader, to be the
        cell's last expression: what a chapter shows is what it records, under one name.

        Counts with thousands separators, other numbers with consistent significant digits, no
        exponent notation, a dash (explained under the table) for undefined values. ``options`` go to
        :func:`dpnet.formatting.for_people` (``digits``, ``formats``, ``undefined``, ``index``,
        ``transpose``); the CSV holds the numbers unformatted, untransposed. ``name`` may be a table
        the chapter has already recorded (:meth:`record`), if it is the same table.
        """
        from dpnet.formatting import for_people

        self.table(frame, name)
        return for_people(frame, **options)

    def table(self, frame: Any, name: str) -> None:
        """Write a pandas DataFrame to ``tables/<name>.csv`` (``name`` as for :meth:`figure`).

        A frame whose rows are labelled (a named index, as a pivot has) keeps its labels as leading
        columns. Writing a different table under a name already written is refused: one name, one
        table.
        """
        self._check_key(name)
        earlier = self._tables.get(name)
        if earlier is not None and not earlier.equals(frame):
            raise ParameterError(
                f"table {name!r} was already written with other contents: give each table its own name"
            )
        self._tables[name] = frame
        labelled = any(level is not None for level in frame.index.names)
        frame.to_csv(self.directory / "tables" / f"{name}.csv", index=labelled)

    # reproduction --------------------------------------------------------------------------
    def checks(self, item: str, checks: Iterable[Check], *, paper_setting: bool = True) -> None:
        """Record checks of a catalogue item for the reproducibility report, and glue their badges.

        Parameters
        ----------
        item
            The item key (``p003-fig1``).
        checks
            :class:`Check` s, each named (unique within its item): ``passed`` is ``None`` when the check
            is undefined for the run's parameters. A check's badge (✓, ✗ or –) is pasted by the prose
            with ``{badge}`item/name``` and links to its row in the report.
        paper_setting
            False when the run does not use the paper's setting for this item: its checks are still
            listed (the badges need them), but the report says "not checked in this run".
        """
        self._check_item(item)
        entry = self._entry(item)
        entry["paper_setting"] = bool(entry.get("paper_setting", True) and paper_setting)
        taken = {c["name"] for c in entry["checks"]}
        for check in checks:
            if not isinstance(check, Check):
                raise ParameterError(f"a check of {item} must be a dpnet.results.Check (got {check!r})")
            claim, passed, detail, name, against = check
            if against not in AGAINST:
                raise ParameterError(f"check {name or claim!r} of {item}: against must be one of {AGAINST}")
            if not NAME.fullmatch(name) or name in taken:
                raise ParameterError(
                    f"check {claim!r} of {item}: its name {name!r} must be new within the item, "
                    "lower case, with hyphens"
                )
            taken.add(name)
            self._glue_badge(item, name, passed)
            outcome = None if passed is None else bool(passed)
            entry["checks"].append(
                {"name": name, "claim": claim, "passed": outcome, "detail": detail, "against": against}
            )
        self._save()

    def deviation(self, item: str, title: str, explanation: str = "", *, note: str = "") -> None:
        """Record a documented deviation between the paper and what regenerates a published item.

        ``note`` is the label of the entry of the book's reproduction notes that explains it (chapters
        written to the book's pattern); ``explanation`` is the older inline text.
        """
        self._check_item(item)
        self._entry(item)["deviations"].append(title)
        self.deviations.append({"item": item, "title": title, "explanation": explanation, "note": note})
        self._save()

    def _entry(self, item: str) -> dict[str, Any]:
        headline = self.headlines.get(item, "")
        return self.reproduction.setdefault(
            item, {"headline": headline, "checks": [], "deviations": [], "paper_setting": True}
        )

    def _glue_badge(self, item: str, name: str, passed: bool | None) -> None:
        from myst_nb import glue

        glue(badge_key(item, name), BADGES[None if passed is None else bool(passed)], display=False)

    def _check_item(self, item: str) -> None:
        if self.items is not None and item not in self.items:
            known = ", ".join(self.items) or "none"
            raise ParameterError(f"{item!r} is not a catalogue item of chapter {self.chapter_id!r} ({known})")

    def _check_key(self, name: str) -> None:
        _check_name(name)
        if self.items is None or not _ITEM_KEY.match(name):
            return
        if not any(name == key or name.startswith(f"{key}-") for key in self.items):
            known = ", ".join(self.items) or "none"
            raise ParameterError(
                f"{name!r} names no catalogue item of chapter {self.chapter_id!r} ({known}), "
                "nor a variant of one (<key>-<variant>)"
            )

    def _save(self) -> None:
        payload = {
            "chapter": self.chapter_id,
            "parameters": self.parameters,
            "reproduction": self.reproduction,
            "deviations": self.deviations,
            **self.metrics,
        }
        path = self.directory / "metrics.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(payload, indent=1, allow_nan=False) + "\n", encoding="utf-8")
        tmp.replace(path)


def _show(fig: Any, png: Path, width: int) -> None:
    """Display the saved ``png`` of ``fig``, ``width`` pixels wide, in a running IPython kernel, and
    close the figure."""
    import matplotlib.pyplot as plt

    try:
        from IPython import get_ipython
        from IPython.display import Image, display
    except ImportError:  # pragma: no cover - IPython ships with the book's dependencies
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display(Image(filename=str(png), width=width))
    plt.close(fig)


def _check_name(name: str) -> None:
    if not name or any(c in name for c in "/\\ ") or name.startswith("."):
        raise ParameterError(f"file name {name!r} must be non-empty, without spaces or slashes")
