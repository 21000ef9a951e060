"""Execute chapters and build the book.

::

    python -m dpnet.book run <id> [--mode quick|full] [-p NAME VALUE]... [--force]
    python -m dpnet.book build [--mode quick|full] [--jobs N] [--force]
    python -m dpnet.book html
    python -m dpnet.book list

``run`` executes one chapter with papermill into a fresh staging directory and, only if every
cell succeeds, swaps it into ``results/<id>/`` (metrics, figures, tables, executed notebook). A
chapter whose inputs (source, parameters, library code, data registry, pinned dependencies) have
not changed since its last successful run is skipped. ``build`` runs every chapter of ``_toc.yml``
(in parallel with ``--jobs``), then the reproducibility report, then builds the HTML with Jupyter
Book (execution off, warnings as errors) and swaps it into ``_build/html``. ``html`` builds the
HTML from the chapters' last runs, whatever their parameters, without executing them.

Each command prints one status line per chapter as it starts and ends, and the last progress line of
its long sweeps every few seconds; ``run``, ``build`` and ``html`` end with a summary table
(:func:`summary_table`): per chapter, its mode, this run's time, its checks passed, failed and
undecided, how many of its sentences in the book's own voice the run contradicts, and whether it ran,
was cached (its inputs had not changed) or failed. A failure is reported after the table, in the last
line, which starts with ``error:``.

A full-mode run at the default parameters fails when a sentence the chapter writes in the book's own
voice (``{holds}``, :mod:`dpnet.voices`) does not hold; other runs may contradict such a sentence, and
the summary counts them.
"""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_loading(signum: int, frame: object) -> None:
    """Ctrl-C before the command has started (while the modules below load): no traceback."""
    sys.stderr.write("interrupted: nothing was changed\n")
    os._exit(130)


if __name__ == "__main__":  # main() puts Python's own handler back once everything is loaded
    signal.signal(signal.SIGINT, _interrupted_while_loading)

import argparse
import ast
import contextlib
import hashlib
import json
import logging
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from dpnet import chapters as chapter_layer
from dpnet import cores, publishing, voices, workspace
from dpnet.data import default_registry_path
from dpnet.dependencies import imported_names, module_files
from dpnet.errors import ChapterError, ClusterError, DataError, ParameterError
from dpnet.params import quoted_name, shown
from dpnet.results import load_metrics, read_record, repo_root
from dpnet.sweep import close_clients, cluster_client, default_jobs

if TYPE_CHECKING:
    from dpnet.report import CheckCounts

__all__ = [
    "Chapter",
    "ChapterRun",
    "build_book",
    "chapters",
    "main",
    "read_defaults",
    "run_chapter",
    "summary_table",
]

REPORT_ID = "reproducibility"
HEARTBEAT_SECONDS = 30.0
#: Sphinx processes of the HTML build: more than cores, so that the autodoc pages spread (_sphinx_build)
HTML_JOBS = 8
PROGRESS_SECONDS = 10.0
#: How the summary names what :func:`run_chapter` returned.
OUTCOMES: dict[str, str] = {"ran": "ran", "up to date": "cached"}
#: The summary's columns: text (left-aligned, :data:`TEXT_COLUMNS`), else numbers (right-aligned).
SUMMARY_COLUMNS: tuple[str, ...] = (
    "chapter", "mode", "time", "passed", "failed", "undecided", "contradicted", "outcome",
)  # fmt: skip
TEXT_COLUMNS: frozenset[str] = frozenset({"chapter", "mode", "outcome"})
#: A cell with nothing to show (a cached chapter's time, a failed chapter's checks).
BLANK = "—"


@dataclass(frozen=True)
class Chapter:
    """A chapter of the book: its id and its MyST source."""

    id: str
    source: Path

    @property
    def stem(self) -> str:
        return self.source.stem


def chapter_id(stem: str) -> str:
    """``01_power_tradeoff`` → ``power-tradeoff``; ``reproducibility`` → ``reproducibility``."""
    head, _, tail = stem.partition("_")
    name = tail if head.isdigit() and tail else stem
    return name.replace("_", "-")


def _toc_files(node: Any) -> Iterator[str]:
    if isinstance(node, Mapping):
        if "file" in node:
            yield str(node["file"])
        for value in node.values():
            if isinstance(value, (list, Mapping)):
                yield from _toc_files(value)
    elif isinstance(node, list):
        for item in node:
            yield from _toc_files(item)


def chapters(root: Path | None = None) -> dict[str, Chapter]:
    """The executable chapters of ``_toc.yml`` (files under ``chapters/``), in book order."""
    root = root or repo_root()
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    found: dict[str, Chapter] = {}
    for entry in _toc_files(toc):
        if not entry.startswith("chapters/"):
            continue
        source = root / f"{entry}.md"
        if not source.exists():
            raise ChapterError(f"_toc.yml lists {entry!r} but {source.relative_to(root)} does not exist")
        chapter = Chapter(chapter_id(source.stem), source)
        found[chapter.id] = chapter
    return found


def get_chapter(cid: str, root: Path | None = None) -> Chapter:
    """The chapter with id ``cid``, or an error listing the known ids."""
    known = chapters(root)
    if cid not in known:
        raise ParameterError(f"unknown chapter id {cid!r}; known chapters: {', '.join(known)}")
    return known[cid]


def _notebook(chapter: Chapter) -> Any:
    import jupytext

    return jupytext.read(chapter.source)


def read_defaults(chapter: Chapter) -> dict[str, Any]:
    """The literal assignments of the chapter's cell tagged ``parameters``.

    A chapter declares its parameters once, in its schema (:mod:`dpnet.chapters`); the cell sets
    ``mode`` and whatever an author changed, and the schema's defaults fill the rest.
    """
    nb = _notebook(chapter)
    cells = [c for c in nb.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ChapterError(
            f"{chapter.source.name} needs exactly one cell tagged 'parameters' (found {len(cells)})"
        )
    values: dict[str, Any] = {}
    for node in ast.parse(cells[0].source).body:
        if not (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            raise ChapterError(
                f"{chapter.source.name}: the parameters cell may hold only `name = literal` lines"
            )
        try:
            values[node.targets[0].id] = ast.literal_eval(node.value)
        except ValueError as exc:
            raise ChapterError(
                f"{chapter.source.name}: parameter {node.targets[0].id} must be a literal ({exc})"
            ) from None
    return values


def _library_files(chapter: Chapter) -> list[Path]:
    """The library modules a chapter's code imports (transitively), the data registry and the pins.

    ``dpnet.chapters.start`` imports the chapter's own module by name, so it is added to what the
    code cells import.
    """
    names = {f"dpnet.chapters.{chapter.id.replace('-', '_')}"}
    cells = [cell for cell in _notebook(chapter).cells if cell.cell_type == "code"]
    for number, cell in enumerate(cells, start=1):
        lines = cell.source.splitlines()
        code = "\n".join(x for x in lines if not x.lstrip().startswith(("%", "!")))
        try:
            names |= imported_names(code)
        except SyntaxError as exc:
            line = _source_line(chapter, cell.source) + (exc.lineno or 1) - 1
            raise ChapterError(
                f"chapter {chapter.id!r}: code cell {number} ({chapter.source.name}, line {line}) is not "
                f"valid Python: {exc.msg}: {(exc.text or '').strip()[:80]!r}; fix the cell"
            ) from None
    return [*module_files(names), default_registry_path(), repo_root() / "pyproject.toml"]


def _source_line(chapter: Chapter, code: str) -> int:
    """The line of the chapter's source where a code cell's ``code`` starts (1 if it cannot be found)."""
    text = chapter.source.read_text(encoding="utf-8")
    at = text.find(code)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def fingerprint(chapter: Chapter, parameters: Mapping[str, Any], root: Path | None = None) -> str:
    """Hash of everything a chapter's results depend on."""
    root = root or repo_root()
    digest = hashlib.sha256()
    digest.update(chapter.source.read_bytes())
    digest.update(json.dumps(dict(parameters), sort_keys=True, default=str).encode())
    inputs = _library_files(chapter)
    if chapter.id == REPORT_ID:
        inputs += [p for p in sorted((root / "results").glob("*/metrics.json")) if p.parent.name != REPORT_ID]
    for path in inputs:
        digest.update(path.name.encode())
        digest.update(path.read_bytes() if path.exists() else b"<missing>")
    return digest.hexdigest()


def resolve_parameters(
    chapter: Chapter, mode: str | None, overrides: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(values injected into the notebook, resolved and validated values)."""
    defaults = read_defaults(chapter)
    if "mode" in overrides and mode is not None and overrides["mode"] != mode:
        raise ParameterError(f"--mode {mode} conflicts with -p mode {overrides['mode']}")
    injected = {**overrides}
    if mode is not None:
        injected["mode"] = mode
    resolved = chapter_layer.resolve(chapter.id, {**defaults, **injected})
    return injected, dict(resolved)


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class _ProgressRelay(threading.Thread):
    """Relays the last progress-bar line a chapter's sweeps write to its log, while it runs."""

    def __init__(self, cid: str, log: Path, every: float = PROGRESS_SECONDS) -> None:
        super().__init__(daemon=True)
        self.cid, self.log, self.every = cid, log, every
        self.stopped = threading.Event()

    def run(self) -> None:
        last = ""
        while not self.stopped.wait(self.every):
            text = self.log.read_text(errors="replace") if self.log.exists() else ""
            lines = [seg.strip() for seg in re.split(r"[\r\n]", text) if seg.strip()]
            if lines and lines[-1] != last:
                last = lines[-1]
                _log(f"[{self.cid}] {last}")

    def stop(self) -> None:
        self.stopped.set()
        self.join()


class _KnownParameters(logging.Filter):
    """Drops papermill's "Passed unknown parameter" warning: the chapter's schema, not its parameters
    cell, lists the parameters, and :func:`resolve_parameters` has validated every one."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Passed unknown parameter")


logging.getLogger("papermill").addFilter(_KnownParameters())


def _hide_injected_cell(nb: Any) -> None:
    for cell in nb.cells:
        tags = cell.setdefault("metadata", {}).setdefault("tags", [])
        if "injected-parameters" in tags and "remove-cell" not in tags:
            tags.append("remove-cell")


def _errors(nb: Any) -> list[str]:
    return [
        f"{out.get('ename')}: {out.get('evalue')}"
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]


def run_chapter(
    cid: str,
    *,
    mode: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    force: bool = False,
    root: Path | None = None,
) -> str:
    """Execute one chapter; returns ``"ran"`` or ``"up to date"``.

    Raises ChapterError on failure, and KeyboardInterrupt when interrupted; either way the chapter's
    previous results are untouched and nothing of the run is left behind.
    """
    root = root or repo_root()
    chapter = get_chapter(cid, root)
    injected, resolved = resolve_parameters(chapter, mode, overrides or {})
    target = root / "results" / chapter.id
    stamp = fingerprint(chapter, resolved, root)
    if not force and _recorded_stamp(target, chapter.id) == stamp:
        return "up to date"

    results = root / "results"
    with workspace.chapter_lock(results, chapter.id):
        workspace.sweep_stale(results)
        staging = workspace.new_staging(results, chapter.id)
        try:
            started = time.perf_counter()
            _execute(chapter, staging, injected, target, root)
            _finish(chapter, staging, stamp, resolved, time.perf_counter() - started)
            workspace.swap_into_place(staging, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return "ran"


#: One thread per BLAS pool in a chapter's kernel and its sweep workers, unless the user set them: the
#: book's parallelism is processes (chapters side by side, sweeps on the cores they share), and BLAS threads
#: on top of them oversubscribe the cores (Pairwise-Preference's eigendecompositions ran 3–4 times slower).
KERNEL_THREADS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _execute(chapter: Chapter, staging: Path, injected: Mapping[str, Any], target: Path, root: Path) -> None:
    """Run the chapter's notebook into ``staging`` with papermill, on a kernel whose files live there."""
    import jupytext
    import papermill

    source_nb = staging / f"{chapter.stem}.source.ipynb"
    executed = staging / f"{chapter.stem}.ipynb"
    relay = _ProgressRelay(chapter.id, staging / "progress.log")
    km = workspace.kernel_manager(staging)
    kernel_log: Path | None = None
    pinned: dict[str, str] = {}
    try:
        jupytext.write(_notebook(chapter), source_nb)
        os.environ["DPNET_RESULTS_DIR"] = str(staging)
        os.environ["DPNET_RESULTS_ROOT"] = str(root / "results")
        os.environ["DPNET_PROGRESS_LOG"] = str(staging / "progress.log")
        pinned = {name: value for name, value in KERNEL_THREADS.items() if name not in os.environ}
        os.environ.update(pinned)
        relay.start()
        kernel_log = workspace.start_kernel(km, chapter.source.parent)
        papermill.execute_notebook(
            str(source_nb),
            str(executed),
            parameters=dict(injected),
            cwd=str(chapter.source.parent),
            kernel_name="python3",
            km=km,
            progress_bar=False,
        )
    except Exception as exc:  # papermill raises PapermillExecutionError, kernels other errors
        kept = "its previous results are untouched" if target.exists() else "it has no previous results"
        where = _keep_failed(executed, root / "results" / "_failed" / f"{chapter.stem}.ipynb")
        if kernel_log is not None and kernel_log.exists() and kernel_log.stat().st_size:
            where += "; " + _keep_failed(
                kernel_log, root / "results" / "_failed" / f"{chapter.stem}.kernel.log"
            )
        raise ChapterError(f"chapter {chapter.id!r} failed: {_describe(exc)}\n  {where}; {kept}") from exc
    finally:
        workspace.shutdown(km)
        if relay.is_alive():
            relay.stop()
        for name in ("DPNET_RESULTS_DIR", "DPNET_RESULTS_ROOT", "DPNET_PROGRESS_LOG", *pinned):
            os.environ.pop(name, None)


def _keep_failed(source: Path, failed: Path) -> str:
    """Keep a failed run's notebook (or kernel log) for inspection; say where (or why it could not be)."""
    what = "kernel log" if source.suffix == ".log" else "executed notebook with the traceback"
    if not source.exists():
        return "no notebook was executed"
    try:
        failed.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, failed)
    except OSError as exc:
        failed.unlink(missing_ok=True)
        return f"the {what} could not be kept ({exc.strerror or exc}: {failed})"
    return f"{what}: {failed}"


def _finish(chapter: Chapter, staging: Path, stamp: str, resolved: Mapping[str, Any], seconds: float) -> None:
    """Check the executed notebook and complete the staging directory (notebook, fingerprint with the
    run's time, which orders the next build: :func:`expected_seconds`).

    A full-mode run at the default parameters must bear out every sentence the chapter writes in the
    book's own voice (``{holds}``, :mod:`dpnet.voices`): one whose check fails, or is undefined, fails
    the chapter, naming the check and the sentence.
    """
    import nbformat

    executed = staging / f"{chapter.stem}.ipynb"
    nb = nbformat.read(executed, as_version=4)
    problems = _errors(nb)
    if problems:
        raise ChapterError(f"chapter {chapter.id!r} left error outputs: {'; '.join(problems)}")
    if not (staging / "metrics.json").exists():
        raise ChapterError(
            f"chapter {chapter.id!r} wrote no metrics.json (it must create dpnet.results.Results)"
        )
    metrics = read_record(staging / "metrics.json", chapter.id)
    if is_default(chapter, resolved):
        _record_every_mark(chapter, metrics)
    if is_default(chapter, resolved) and resolved.get("mode") == "full":
        _hold_the_books_word(chapter, metrics)
    _hide_injected_cell(nb)
    try:
        nbformat.write(nb, executed)
        (staging / f"{chapter.stem}.source.ipynb").unlink()
        (staging / "progress.log").unlink(missing_ok=True)
        payload = {
            "sha256": stamp, "parameters": resolved, "finished": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "seconds": round(seconds, 1),
        }  # fmt: skip
        record = json.dumps(payload, indent=1, default=str) + "\n"
        (staging / "fingerprint.json").write_text(record, encoding="utf-8")
    except OSError as exc:
        raise ChapterError(f"cannot write the results of chapter {chapter.id!r} in {staging}: {exc}") from exc


def is_default(chapter: Chapter, resolved: Mapping[str, Any]) -> bool:
    """Whether a run's parameters are the chapter's defaults for its mode (in full mode, the paper's
    setting, where the book's own sentences must hold)."""
    mode = resolved.get("mode")
    if mode not in ("quick", "full"):
        return False
    defaults = resolve_parameters(chapter, mode, {})[1]
    return json.loads(json.dumps(defaults, default=str)) == json.loads(json.dumps(resolved, default=str))


def _record_every_mark(chapter: Chapter, metrics: Mapping[str, Any]) -> None:
    """At the default parameters, every ``{badge}`` and ``{holds}`` of the chapter must name a check its
    run recorded (a misspelt name, or a check no longer recorded, is an error). Other parameters may
    leave a check out: its mark then shows – (:mod:`dpnet.sphinxext`)."""
    missing = voices.missing_targets(chapter.source.read_text(encoding="utf-8"), metrics)
    if missing:
        raise ChapterError(
            f"chapter {chapter.id!r} names checks its run did not record: {', '.join(missing)}; fix the "
            "names in the chapter's {badge}/{holds} marks, or record the checks (undefined where they do "
            "not apply)"
        )


def _hold_the_books_word(chapter: Chapter, metrics: Mapping[str, Any] | None) -> None:
    """Raise :class:`ChapterError` when a sentence in the book's own voice does not hold in this run."""
    found = voices.statements(chapter.source.read_text(encoding="utf-8"))
    wrong = voices.contradicted(found, metrics, strict=True)
    if not wrong:
        return
    lines = []
    for statement in wrong:
        verdict = voices.verdict(statement, metrics)
        why = "its check failed" if verdict is False else "its check is undefined or was not recorded"
        lines.append(
            f"  line {statement.line}, {{holds}}`{statement.where}` ({why}): {_shortened(statement.sentence)}"
        )
    raise ChapterError(
        f"chapter {chapter.id!r}: {len(wrong)} sentence(s) in the book's own voice do not hold in this "
        "full run at the default parameters; rewrite each sentence (or report the paper's claim with "
        "{badge}), or fix the computation:\n" + "\n".join(lines)
    )


def _shortened(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _describe(exc: BaseException) -> str:
    """The error a chapter raised, whole: papermill's ``ename: evalue`` (every line of it), else the
    exception's own message."""
    ename, evalue = getattr(exc, "ename", None), getattr(exc, "evalue", None)
    if ename and evalue is not None:
        return f"{ename}: {evalue}".strip()
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass(frozen=True)
class ChapterRun:
    """What became of one chapter in a ``run`` or ``build``: a row of the summary table.

    Attributes
    ----------
    id
        The chapter id.
    outcome
        ``"ran"``, ``"cached"`` (its inputs had not changed since its last run) or ``"failed"``.
    seconds
        How long the chapter took in this run; None when it was cached.
    mode
        The mode its results were made in; for a failed chapter, the mode it was asked to run in.
    checks
        Its checks by outcome, from its ``metrics.json``; None for a failed chapter, whose results (if
        any) are those of an earlier run.
    contradicted
        How many of its sentences in the book's own voice its results contradict (:mod:`dpnet.voices`);
        None when they cannot be read.
    """

    id: str
    outcome: str
    seconds: float | None
    mode: str
    checks: CheckCounts | None
    contradicted: int | None = None


def finished_run(cid: str, outcome: str, seconds: float, root: Path) -> ChapterRun:
    """The summary row of a chapter that ran or was cached, read from ``results/<id>/``.

    Parameters
    ----------
    cid
        The chapter id.
    outcome
        What :func:`run_chapter` returned: ``"ran"`` or ``"up to date"``.
    seconds
        How long it took (shown only when it ran).
    root
        The repository root.

    Returns
    -------
    ChapterRun
        Its row, with the mode from ``fingerprint.json`` and the checks from ``metrics.json`` (shown
        blank if either cannot be read: the summary never stops a build).
    """
    results = root / "results"
    shown = OUTCOMES[outcome]
    mode, checks = _recorded_mode(results, cid), _recorded_checks(results, cid)
    contradicted = _contradicted(results, cid, root)
    return ChapterRun(cid, shown, seconds if shown == "ran" else None, mode, checks, contradicted)


def failed_run(cid: str, seconds: float, mode: str | None) -> ChapterRun:
    """The summary row of a chapter that failed after ``seconds``, asked to run in ``mode`` (None: its
    default mode)."""
    return ChapterRun(cid, "failed", seconds, mode or "default", None)


def _recorded_stamp(target: Path, cid: str) -> str | None:
    """The fingerprint of the run whose results are in ``target``, or None when there are none, or when
    its records cannot be read (a truncated ``fingerprint.json`` or ``metrics.json``): the chapter is then
    run again, which rewrites them."""
    try:
        stamp = read_record(target / "fingerprint.json", cid).get("sha256")
        read_record(target / "metrics.json", cid)
    except ChapterError:
        return None
    return stamp if isinstance(stamp, str) else None


def _recorded_mode(results: Path, cid: str) -> str:
    """The mode of a chapter's results, from its ``fingerprint.json`` (:data:`BLANK` if unreadable)."""
    try:
        return str(read_record(results / cid / "fingerprint.json", cid)["parameters"]["mode"])
    except (ChapterError, KeyError, TypeError):
        return BLANK


def _recorded_checks(results: Path, cid: str) -> CheckCounts | None:
    """A chapter's checks by outcome, counted as the report counts them (None if unreadable)."""
    from dpnet.report import chapter_check_counts

    try:
        return chapter_check_counts(load_metrics(cid, results))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _contradicted(results: Path, cid: str, root: Path) -> int | None:
    """How many sentences in the book's own voice a chapter's last results contradict (None if either
    cannot be read)."""
    try:
        source = get_chapter(cid, root).source.read_text(encoding="utf-8")
        return len(voices.contradicted(voices.statements(source), load_metrics(cid, results)))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, ParameterError):
        return None


def _summary_cells(run: ChapterRun) -> tuple[str, ...]:
    """One row of the summary table, as text: a chapter without checks shows :data:`BLANK` counts."""
    seconds = BLANK if run.seconds is None else f"{run.seconds:.1f} s"
    counts = (BLANK,) * 3
    if run.checks is not None and run.checks.total:
        counts = (str(run.checks.passed), str(run.checks.failed), str(run.checks.undecided))
    contradicted = BLANK if run.contradicted is None else str(run.contradicted)
    return (run.id, run.mode, seconds, *counts, contradicted, run.outcome)


def _table_line(cells: Sequence[str], widths: Sequence[int]) -> str:
    """Cells padded to their column's width: text left-aligned, numbers (time, checks) right-aligned."""
    columns = zip(SUMMARY_COLUMNS, cells, widths, strict=True)
    padded = [cell.ljust(w) if name in TEXT_COLUMNS else cell.rjust(w) for name, cell, w in columns]
    return "  ".join(padded).rstrip()


def summary_table(runs: Sequence[ChapterRun]) -> str:
    """The chapters of a ``run`` or ``build`` as a plain-text table with fixed-width columns.

    Parameters
    ----------
    runs
        The chapters, in the order they are to be listed.

    Returns
    -------
    str
        A header, a rule and one line per chapter: id, mode, this run's time, its checks passed,
        failed and undecided, and its outcome (ran, cached or failed).
    """
    rows = [SUMMARY_COLUMNS, *(_summary_cells(run) for run in runs)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(SUMMARY_COLUMNS))]
    rule = ["-" * width for width in widths]
    return "\n".join(_table_line(cells, widths) for cells in [rows[0], rule, *rows[1:]])


def _log_summary(runs: Sequence[ChapterRun]) -> None:
    """Print the summary table after a blank line, if any chapter finished."""
    if runs:
        _log("\n" + summary_table(runs))


def _run_in_worker(cid: str, mode: str | None, force: bool, root: Path) -> tuple[str, str, float]:
    start = time.perf_counter()
    with cores.chapter_slot():  # the chapter's own core; its sweeps borrow the free ones
        outcome = run_chapter(cid, mode=mode, force=force, root=root)
    return cid, outcome, time.perf_counter() - start


def run_all(
    ids: Sequence[str],
    *,
    mode: str | None,
    jobs: int,
    force: bool,
    root: Path,
    runs: list[ChapterRun] | None = None,
) -> None:
    """Run chapters, at most ``jobs`` at a time, reporting each with its elapsed time.

    With ``jobs > 1`` the chapters share ``jobs`` core slots (:mod:`dpnet.cores`): a chapter's sweeps use
    the cores the others leave free, so no core idles while a chapter still has tasks to run. Each
    chapter's summary row is appended to ``runs`` (in the order of ``ids`` once all have finished),
    so that the rows of the chapters that finished are there even when another fails. A failed
    chapter's error is printed when it fails; once every chapter has finished, a ChapterError names
    the failed ones.
    """
    sharing = contextlib.nullcontext()
    if jobs > 1:
        # under the kernels' prefix in the temporary directory, so a killed build's slots get swept
        directory = Path(tempfile.mkdtemp(prefix=f"{workspace.SOCKETS_PREFIX}{os.getpid()}-cores-"))
        sharing = cores.shared(jobs, directory)
    with sharing:
        _run_pool(ids, mode=mode, jobs=jobs, force=force, root=root, runs=[] if runs is None else runs)


def expected_seconds(cid: str, mode: str | None, root: Path) -> float:
    """How long chapter ``cid`` should run in ``mode``: its last run's time in that mode (recorded in
    ``results/<id>/fingerprint.json``), else its footprint's estimate, else 0 (nothing is known).

    A build starts the chapters that take longest first, so that the short ones fill the cores at the
    end instead of a long one running alone.
    """
    try:
        _, resolved = resolve_parameters(get_chapter(cid, root), mode, {})
    except (ChapterError, ParameterError):
        return 0.0
    try:
        last = read_record(root / "results" / cid / "fingerprint.json", cid)
        if last["parameters"]["mode"] == resolved["mode"]:
            return float(last["seconds"])
    except (ChapterError, ValueError, KeyError, TypeError):
        pass
    footprint = chapter_layer.schema(cid).footprint
    return footprint(resolved).seconds if footprint is not None else 0.0


def _run_pool(
    ids: Sequence[str], *, mode: str | None, jobs: int, force: bool, root: Path, runs: list[ChapterRun]
) -> None:
    first = len(runs)
    pending = sorted(ids, key=lambda cid: -expected_seconds(cid, mode, root)) if jobs > 1 else list(ids)
    running: dict[Future[tuple[str, str, float]], tuple[str, float]] = {}
    failures: list[str] = []
    last_beat = time.perf_counter()
    pool = ProcessPoolExecutor(max_workers=max(1, jobs), initializer=_worker_init)
    try:
        while pending or running:
            while pending and len(running) < jobs:
                cid = pending.pop(0)
                _log(f"[{cid}] running ({mode or 'default'} mode)")
                running[pool.submit(_run_in_worker, cid, mode, force, root)] = (cid, time.perf_counter())
            done, _ = wait(running, timeout=HEARTBEAT_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                cid, started = running.pop(future)
                try:
                    _, outcome, seconds = future.result()
                    _log(f"[{cid}] {outcome} ({seconds:.1f} s)")
                    runs.append(finished_run(cid, outcome, seconds, root))
                except (ChapterError, ParameterError) as exc:
                    failures.append(cid)
                    seconds = time.perf_counter() - started
                    _log(f"[{cid}] FAILED after {seconds:.1f} s\n{exc}")
                    runs.append(failed_run(cid, seconds, mode))
            now = time.perf_counter()
            if running and now - last_beat >= HEARTBEAT_SECONDS:
                still = ", ".join(f"{c} ({now - s:.0f} s)" for c, s in running.values())
                _log(f"still running: {still}")
                last_beat = now
    except BaseException:
        # interrupted: each worker cleans up its chapter (SIGTERM is Ctrl-C there) before the pool closes
        for process in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    runs[first:] = sorted(runs[first:], key=lambda run: list(ids).index(run.id))  # in book order
    if failures:
        raise ChapterError(
            f"{len(failures)} chapter(s) failed: {', '.join(failures)}; the book was not built "
            "(each chapter's error is printed above, under [<id>] FAILED)"
        )


def stage_book(root: Path) -> Path:
    """Assemble the book's source tree in ``_build/src`` with the executed notebooks."""
    src = root / "_build" / "src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    for name in ("_config.yml", "_toc.yml"):
        shutil.copy2(root / name, src / name)
    shutil.copytree(root / "book", src / "book")
    (src / "chapters" / "sources").mkdir(parents=True)
    for chapter in chapters(root).values():
        executed = root / "results" / chapter.id / f"{chapter.stem}.ipynb"
        if not executed.exists():
            raise ChapterError(
                f"chapter {chapter.id!r} has not been executed: run `python -m dpnet.book run {chapter.id}`"
            )
        shutil.copy2(executed, src / "chapters" / executed.name)
        shutil.copy2(chapter.source, src / "chapters" / "sources" / chapter.source.name)
    return src


def build_book(
    *,
    mode: str | None = None,
    jobs: int = 1,
    force: bool = False,
    execute: bool = True,
    root: Path | None = None,
) -> Path:
    """Run every chapter, then the report, then build the HTML into ``_build/html``.

    ``execute=False`` renders the chapters' last runs as they are (the report, which only reads them,
    is brought up to date). The summary table of the chapters that finished is printed at the end,
    followed by the path of the HTML, or, when something failed, before the error propagates.
    """
    root = root or repo_root()
    publishing.repository(root / "_config.yml")  # an address that is not a repository's: before any run
    start = time.perf_counter()
    runs: list[ChapterRun] = []
    try:
        _run_chapters(runs, mode=mode, jobs=jobs, force=force, execute=execute, root=root)
        html = _render_html(root)
    except Exception:
        _log_summary(runs)
        raise
    _log_summary(runs)
    _log(f"[book] done in {time.perf_counter() - start:.1f} s: {html / 'index.html'}")
    return html


def _run_chapters(
    runs: list[ChapterRun], *, mode: str | None, jobs: int, force: bool, execute: bool, root: Path
) -> None:
    """Run the chapters (unless not ``execute``), then the report; their rows go to ``runs``."""
    ids = [cid for cid in chapters(root) if cid != REPORT_ID]
    if execute:
        run_all(ids, mode=mode, jobs=jobs, force=force, root=root, runs=runs)
    else:
        _check_last_runs(ids, root)
    if REPORT_ID in chapters(root):
        run_all([REPORT_ID], mode=mode, jobs=1, force=force, root=root, runs=runs)


def _check_last_runs(ids: Sequence[str], root: Path) -> None:
    """Before the HTML is built from the chapters' last runs: each has run, its records can be read, and
    a run at the default parameters recorded every check the chapter's marks name (the error says which
    chapter, and what to do)."""
    for cid in ids:
        chapter = get_chapter(cid, root)
        target = root / "results" / cid
        if not (target / "metrics.json").exists():
            raise ChapterError(f"chapter {cid!r} has not been executed: run `python -m dpnet.book run {cid}`")
        metrics = read_record(target / "metrics.json", cid)
        parameters = read_record(target / "fingerprint.json", cid).get("parameters", {})
        missing = voices.missing_targets(chapter.source.read_text(encoding="utf-8"), metrics)
        if missing and is_default(chapter, parameters):
            raise ChapterError(
                f"chapter {cid!r} names checks its last run did not record: {', '.join(missing)}; re-run it "
                f"(python -m dpnet.book run {cid}), or fix the names in its {{badge}}/{{holds}} marks"
            )


def _render_html(root: Path, jobs: int = HTML_JOBS) -> Path:
    """Build the HTML of the chapters' executed notebooks with Jupyter Book into ``_build/html``.

    Sphinx reads and writes the pages in ``jobs`` processes (:func:`_sphinx_build`). The repository
    the book is published from (``DPNET_REPOSITORY``, else ``_config.yml``; :mod:`dpnet.publishing`)
    is read first: it shows or hides the repository, issues and Binder buttons, and an address that is
    not a repository's stops the build before anything is staged.
    """
    import subprocess

    overrides = publishing.sphinx_overrides(root / "_config.yml")
    src = root / "_build" / "src"
    out = root / "_build" / "staging"
    shutil.rmtree(out, ignore_errors=True)
    try:
        stage_book(root)
        _log("[book] building HTML (jupyter-book, warnings are errors)")
        command = [
            sys.executable, "-c", "from dpnet.book import _sphinx_build; _sphinx_build()",
            str(src), str(out / "_build" / "html"), str(jobs), json.dumps(overrides),
        ]  # fmt: skip
        proc = subprocess.run(command, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            log = root / "_build" / "jupyter-book.log"
            log.write_text(proc.stdout + proc.stderr, encoding="utf-8")
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
            raise ChapterError(f"jupyter-book build failed (full log: {log.relative_to(root)}):\n{tail}")
        html = root / "_build" / "html"
        workspace.swap_into_place(out / "_build" / "html", html)
    finally:  # built, failed or interrupted: no staging is left behind
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(src, ignore_errors=True)
    return html


def _sphinx_build() -> None:
    """``jupyter-book build <src> --all -W --keep-going`` into ``<out>``, with Sphinx's ``jobs`` processes.

    Run in a subprocess (``sys.argv``: src, out, jobs, and the publishing overrides as JSON,
    :func:`dpnet.publishing.sphinx_overrides`). The command line of Jupyter Book 1 has no option
    for Sphinx's processes; its :func:`jupyter_book.sphinx.build_sphinx` does. Sphinx hands each
    process a run of consecutive pages, so a few pages heavy with autodoc (``book/api/``) are spread
    over several runs only when there are more processes than cores.
    """
    from jupyter_book.sphinx import build_sphinx

    src, out, jobs = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    publishing_overrides = json.loads(sys.argv[4])
    confoverrides = {
        "external_toc_path": (src / "_toc.yml").as_posix(),
        "latex_individualpages": False,
        **publishing_overrides,  # Jupyter Book merges its theme options into those of _config.yml
    }
    result = build_sphinx(
        src, out, noconfig=True, path_config=src / "_config.yml", builder="html", freshenv=True,
        confoverrides=confoverrides, warningiserror=True, keep_going=True, jobs=jobs,
    )  # fmt: skip
    if result:
        raise SystemExit(f"error: the HTML build failed ({result}); the messages above say why")


#: The longest value ``-p NAME VALUE`` accepts, in characters, and the most digits of a number in it: a
#: parameter value is data, and no parameter needs more.
MAX_VALUE_CHARACTERS = 2000
MAX_DIGITS = 30


class _DataLoader(yaml.SafeLoader):
    """YAML's safe loader without anchors and aliases: a value is read as plain data, so a short text
    cannot expand into a huge or endless structure ("billion laughs", ``&a [*a]``)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent) or getattr(self.peek_event(), "anchor", None):
            raise yaml.YAMLError("anchors and aliases (& and *) are not accepted in a parameter value")
        return super().compose_node(parent, index)


def read_value(name: str, raw: str) -> Any:
    """A ``-p NAME VALUE`` value, read as YAML data: numbers, words, lists, mappings.

    Raises
    ------
    ParameterError
        For a value longer than :data:`MAX_VALUE_CHARACTERS`, a number with more than :data:`MAX_DIGITS`
        digits, YAML anchors or aliases, or text that is not YAML; the message quotes the value only
        in part.
    """
    label = f"-p {quoted_name(name)}"
    if len(raw) > MAX_VALUE_CHARACTERS:
        raise ParameterError(
            f"{label}: the value is {len(raw):,} characters long; a parameter value is at most "
            f"{MAX_VALUE_CHARACTERS:,} ({shown(raw)})"
        )
    if re.search(rf"\d{{{MAX_DIGITS + 1},}}", raw):
        raise ParameterError(f"{label}: a number with more than {MAX_DIGITS} digits is not a parameter value")
    try:
        return _numbers(yaml.load(raw, Loader=_DataLoader))
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ParameterError(f"{label}: cannot read {shown(raw)} as YAML data ({why})") from None


def _last_run(chapter: Chapter, stamp: Path) -> str:
    """When a chapter last ran, in which mode, with default or custom parameters (``list``); or why that
    cannot be told."""
    try:
        last = read_record(stamp, chapter.id)
        read_record(stamp.with_name("metrics.json"), chapter.id)
        mode = last["parameters"]["mode"]
        defaults = resolve_parameters(chapter, mode, {})[1]
        kind = "default" if json.loads(json.dumps(defaults, default=str)) == last["parameters"] else "custom"
        return f"{last['finished']}, {mode} mode, {kind} parameters"
    except ChapterError as exc:
        return f"unknown: {exc}"
    except (KeyError, TypeError, ParameterError):
        return (
            f"unknown: {stamp} is not a run's record: re-run the chapter "
            f"(python -m dpnet.book run {chapter.id})"
        )


def _parse_overrides(pairs: Sequence[Sequence[str]]) -> dict[str, Any]:
    """The ``-p NAME VALUE`` pairs, each name once."""
    overrides: dict[str, Any] = {}
    raws: dict[str, str] = {}
    for name, raw in pairs:
        if name in raws:
            raise ParameterError(
                f"-p {quoted_name(name)} is given twice ({shown(raws[name])}, then {shown(raw)}): "
                "give each parameter once"
            )
        if not name:
            raise ParameterError("-p '' names no parameter: give a parameter's name, then its value")
        raws[name] = raw
        overrides[name] = read_value(name, raw)
    return overrides


def _numbers(value: Any) -> Any:
    """Read YAML 1.1's leftovers such as ``1e-2`` and ``1e5`` (strings to PyYAML) as numbers."""
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: _numbers(v) for k, v in value.items()}
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return value
        integral = number.is_integer() and "." not in value and "e-" not in value.lower()
        return int(number) if integral else number
    return value


def main(argv: Sequence[str] | None = None) -> int:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(prog="python -m dpnet.book", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="execute one chapter")
    run.add_argument("chapter", help="chapter id, e.g. power-tradeoff")
    run.add_argument("--mode", choices=["quick", "full"], default=None)
    run.add_argument("-p", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
                     help="override a parameter; VALUE is read as YAML")  # fmt: skip
    run.add_argument("--force", action="store_true", help="re-run even if nothing changed")
    run.add_argument("--allow-large", action="store_true",
                     help="run even when estimated to take over an hour (-p allow_large true)")  # fmt: skip
    build = sub.add_parser("build", help="execute every chapter and build the HTML")
    build.add_argument("--mode", choices=["quick", "full"], default=None)
    build.add_argument("--jobs", type=int, default=1, help="chapters executed in parallel")
    build.add_argument("--force", action="store_true", help="re-run every chapter")
    for command in (run, build):
        command.add_argument("--scheduler", metavar="ADDRESS", default=None,
                             help="run the sweeps on a Dask scheduler, e.g. tcp://host:8786")  # fmt: skip
    sub.add_parser("html", help="build the HTML from the chapters' last runs, without executing them")
    sub.add_parser("list", help="list the chapters and the state of their results")
    args = parser.parse_args(argv)
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        if args.command == "run":
            start = time.perf_counter()
            overrides = _parse_overrides(args.p)
            if args.allow_large:
                overrides["allow_large"] = True
            resolve_parameters(get_chapter(args.chapter), args.mode, overrides)  # fail before "running"
        if args.command in ("run", "build"):
            default_jobs()  # a bad DPNET_JOBS stops here, before any kernel starts
            if args.scheduler:
                os.environ["DPNET_SCHEDULER"] = args.scheduler  # the kernels inherit it
            if os.environ.get("DPNET_SCHEDULER"):
                cluster_client(os.environ["DPNET_SCHEDULER"])  # an unreachable one stops here
        if args.command == "run":
            _log(f"[{args.chapter}] running ({args.mode or 'default'} mode)")
            outcome = run_chapter(args.chapter, mode=args.mode, overrides=overrides, force=args.force)
            seconds = time.perf_counter() - start
            _log(f"[{args.chapter}] {outcome} ({seconds:.1f} s): results/{args.chapter}/")
            _log_summary([finished_run(args.chapter, outcome, seconds, repo_root())])
            if outcome == "ran":
                _log("the HTML and the reproducibility report predate this run: `python -m dpnet.book html`")
        elif args.command == "html":
            build_book(execute=False)
        elif args.command == "build":
            if args.jobs < 1:
                raise ParameterError(f"--jobs must be an integer ≥ 1 (got {args.jobs})")
            build_book(mode=args.mode, jobs=args.jobs, force=args.force)
        else:
            for chapter in chapters().values():
                stamp = repo_root() / "results" / chapter.id / "fingerprint.json"
                state = "not run" if not stamp.exists() else _last_run(chapter, stamp)
                print(f"{chapter.id:24s} {chapter.source.relative_to(repo_root())}  last run: {state}")
    except (ParameterError, ChapterError, DataError, ClusterError) as exc:
        _log(f"error: {exc}")
        return 2
    except KeyboardInterrupt as exc:
        # the kernel's pending asyncio tasks die with it; their "exception was never retrieved" is not news
        logging.getLogger("asyncio").setLevel(logging.CRITICAL)
        _log(f"interrupted: {INTERRUPTED[args.command].format(chapter=getattr(args, 'chapter', ''))}")
        return 143 if isinstance(exc, _Terminated) else 130
    finally:
        signal.signal(signal.SIGTERM, previous)
        close_clients()
    return 0


#: What an interrupt leaves, by command.
INTERRUPTED = {
    "run": "{chapter} not run, previous results kept",
    "build": (
        "the book was not built; the chapters that had finished keep their new results, the others their "
        "previous ones, and _build/html is unchanged"
    ),
    "html": "the HTML was not built; _build/html is unchanged",
    "list": "nothing was changed",
}


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the process is, so that every ``finally`` cleans up as for Ctrl-C."""


def _terminate(signum: int, frame: Any) -> None:
    raise _Terminated


def _worker_init() -> None:
    """In a build's worker process: SIGTERM cleans up like Ctrl-C; Ctrl-C reaches the workers directly."""
    signal.signal(signal.SIGTERM, _terminate)


if __name__ == "__main__":
    raise SystemExit(main())
