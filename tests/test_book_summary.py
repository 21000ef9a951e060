"""What `run` and `build` print: a summary table of the chapters, then the HTML path or one `error:` line.

The tables are checked on throwaway books of tiny stand-in chapters (a few seconds each; the HTML build
is replaced by a stub); every chapter's parameters cell is read as papermill reads it. The terminal of a
real chapter run is checked for the kernel's and papermill's noise in tests/test_book.py
(``test_chapter1_with_other_parameters_stays_correct``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from pathlib import Path

import pytest
from book_checks import STAND_IN

from dpnet import book
from dpnet.report import CheckCounts

ROOT = Path(__file__).resolve().parents[1]

CHAPTER = STAND_IN.replace("TITLE", "Stand-in for CID")
#: Two checks pass, one fails, one is undefined for the run's parameters.
CHECKS = (
    "from dpnet.results import Check\n"
    'results.checks("p003-fig1", [Check("holds", True, name="a"), Check("holds too", True, name="b"), '
    'Check("fails", False, name="c"), Check("undefined here", None, name="d")])'
)
FILES = {"power-tradeoff": "01_power_tradeoff", "online-learning": "05_online_learning"}


def fake_book(root: Path, bodies: dict[str, str]) -> Path:
    """A book of stand-in chapters (ids with a parameter schema), then a report stand-in that records
    no check."""
    (root / "chapters").mkdir(parents=True, exist_ok=True)
    files = [*(FILES[cid] for cid in bodies), "reproducibility"]
    toc = "format: jb-book\nroot: intro\nchapters:\n" + "".join(f"  - file: chapters/{f}\n" for f in files)
    (root / "_toc.yml").write_text(toc)
    for cid, body in [*bodies.items(), ("reproducibility", 'results.metric("value", 1)')]:
        text = CHAPTER.replace("CID", cid).replace("BODY", body)
        (root / "chapters" / f"{FILES.get(cid, cid)}.md").write_text(text)
    return root


@pytest.fixture
def book_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The root the CLI works on (`main`), with the repository's configuration and the HTML build stubbed
    out."""
    shutil.copy2(ROOT / "_config.yml", tmp_path / "_config.yml")
    monkeypatch.setattr(book, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(book, "_render_html", lambda root: root / "_build" / "html")
    return tmp_path


def lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


def table(err: str) -> dict[str, list[str]]:
    """The rows of the summary table in ``err``, by chapter id (cells split at two or more spaces)."""
    found = lines(err)
    header = next(i for i, line in enumerate(found) if line.split()[:2] == ["chapter", "mode"])
    assert re.split(r"\s{2,}", found[header]) == list(book.SUMMARY_COLUMNS)
    assert set(found[header + 1]) <= {"-", " "}
    rows = {}
    for line in found[header + 2 :]:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) != len(book.SUMMARY_COLUMNS):
            break
        rows[cells[0]] = cells[1:]
    return rows


SECONDS = re.compile(r"\d+\.\d s")


def test_build_prints_a_row_per_chapter_then_the_html(book_root: Path, capsys: pytest.CaptureFixture) -> None:
    fake_book(book_root, {"power-tradeoff": CHECKS})
    assert book.run_chapter("power-tradeoff", root=book_root) == "ran"  # the build finds it cached

    assert book.main(["build"]) == 0
    err = capsys.readouterr().err
    rows = table(err)
    assert list(rows) == ["power-tradeoff", "reproducibility"], err
    assert rows["power-tradeoff"] == ["quick", "—", "2", "1", "1", "0", "cached"], err
    mode, seconds, *checks, contradicted, outcome = rows["reproducibility"]
    assert (mode, checks, outcome) == ("quick", ["—", "—", "—"], "ran") and SECONDS.fullmatch(seconds), err
    assert contradicted == "0", err
    assert re.fullmatch(r"\[book\] done in \d+\.\d s: .*_build/html/index\.html", lines(err)[-1]), err


def test_a_build_starts_the_chapters_that_take_longest_first(
    book_root: Path, capsys: pytest.CaptureFixture
) -> None:
    """The expected time is the last run's in the same mode (``fingerprint.json``), else the footprint's
    estimate: the chapter second in the book but slower last time starts first, and the run records its
    own time for the next build."""
    from dpnet.chapters import schema

    fake_book(book_root, {"power-tradeoff": CHECKS, "online-learning": CHECKS})
    for cid, seconds in (("power-tradeoff", 1.0), ("online-learning", 100.0)):
        (book_root / "results" / cid).mkdir(parents=True)
        last = {"sha256": "an older run", "parameters": {"mode": "quick"}, "seconds": seconds}
        (book_root / "results" / cid / "fingerprint.json").write_text(json.dumps(last))
    full = book.resolve_parameters(book.get_chapter("power-tradeoff", book_root), "full", {})[1]
    footprint = schema("power-tradeoff").footprint
    assert footprint is not None  # no full-mode record: the estimate
    assert book.expected_seconds("power-tradeoff", "full", book_root) == footprint(full).seconds

    assert book.main(["build", "--jobs", "2"]) == 0
    err = capsys.readouterr().err
    started = [line.split("]")[0].lstrip("[") for line in lines(err) if "] running (" in line]
    assert started == ["online-learning", "power-tradeoff", "reproducibility"], err
    for cid in ("power-tradeoff", "online-learning"):
        recorded = json.loads((book_root / "results" / cid / "fingerprint.json").read_text())["seconds"]
        assert 0 < recorded < 100 and book.expected_seconds(cid, "quick", book_root) == recorded


def test_run_prints_its_one_row(book_root: Path, capsys: pytest.CaptureFixture) -> None:
    fake_book(book_root, {"power-tradeoff": CHECKS})

    assert book.main(["run", "power-tradeoff"]) == 0
    err = capsys.readouterr().err
    rows = table(err)
    assert list(rows) == ["power-tradeoff"], err
    mode, seconds, *checks, outcome = rows["power-tradeoff"]
    assert (mode, checks, outcome) == ("quick", ["2", "1", "1", "0"], "ran") and SECONDS.fullmatch(seconds), (
        err
    )
    assert lines(err)[-1].startswith("the HTML and the reproducibility report predate this run"), err

    assert book.main(["run", "power-tradeoff", "--mode", "quick"]) == 0  # nothing changed: cached
    err = capsys.readouterr().err
    assert table(err) == {"power-tradeoff": ["quick", "—", "2", "1", "1", "0", "cached"]}, err
    assert lines(err)[-1].startswith("power-tradeoff"), err  # no stale-HTML hint


def test_a_failed_chapter_is_in_the_table_and_the_error_is_last(
    book_root: Path, capsys: pytest.CaptureFixture
) -> None:
    slow = f"{CHECKS}\n__import__('time').sleep(4)"  # the failing chapter, run beside it, ends first
    fake_book(book_root, {"power-tradeoff": slow, "online-learning": "1 / 0"})

    assert book.main(["build", "--jobs", "2"]) == 2
    err = capsys.readouterr().err
    assert err.index("[online-learning] FAILED") < err.index("[power-tradeoff] ran"), err
    rows = table(err)
    assert list(rows) == ["power-tradeoff", "online-learning"], err  # in book order; the report did not run
    assert rows["power-tradeoff"][2:] == ["2", "1", "1", "0", "ran"], err
    mode, seconds, *checks, outcome = rows["online-learning"]
    assert (mode, checks, outcome) == ("default", ["—", "—", "—", "—"], "failed") and SECONDS.fullmatch(
        seconds
    )
    assert err.index("ZeroDivisionError") < err.index("\nchapter  "), err  # the cause, before the table
    assert lines(err)[-1] == (
        "error: 1 chapter(s) failed: online-learning; the book was not built "
        "(each chapter's error is printed above, under [<id>] FAILED)"
    ), err


def test_summary_columns_line_up() -> None:
    runs = [
        book.ChapterRun("a-long-chapter-id", "ran", 1234.56, "full", CheckCounts(12, 0, 3), 0),
        book.ChapterRun("short", "cached", None, "quick", CheckCounts(), 2),  # no checks: blank counts
        book.ChapterRun("broken", "failed", 2.0, "default", None),
    ]
    assert book.summary_table(runs).splitlines() == [
        "chapter            mode         time  passed  failed  undecided  contradicted  outcome",
        "-----------------  -------  --------  ------  ------  ---------  ------------  -------",
        "a-long-chapter-id  full     1234.6 s      12       0          3             0  ran",
        "short              quick           —       —       —          —             2  cached",
        "broken             default     2.0 s       —       —          —             —  failed",
    ]


def test_papermill_reads_every_parameters_cell(caplog: pytest.LogCaptureFixture) -> None:
    """Papermill parses each chapter's parameters cell when it injects parameters; a line it cannot read
    would print "Unable to parse line" in the terminal of every run."""
    from papermill.translators import PythonTranslator

    with caplog.at_level(logging.WARNING, logger="papermill"):
        for chapter in book.chapters(ROOT).values():
            tagged = [c for c in book._notebook(chapter).cells if "parameters" in c.metadata.get("tags", [])]
            assert "mode" in {p.name for p in PythonTranslator.inspect(tagged[0])}, chapter.id
    assert not caplog.records, [r.getMessage() for r in caplog.records]


def test_kernels_run_one_blas_thread_unless_the_user_says(
    book_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chapter's kernel sees one thread per BLAS pool (its parallelism is processes); a value the user
    set is kept; the runner's own environment is left as it was."""
    names = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
    record = f'import os\nresults.metric("threads", [os.environ.get(n) for n in {names!r}])'
    fake_book(book_root, {"power-tradeoff": record})
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert book.run_chapter("power-tradeoff", root=book_root, force=True) == "ran"
    metrics = json.loads((book_root / "results" / "power-tradeoff" / "metrics.json").read_text())
    assert metrics["threads"] == ["1", "3"]
    assert "OPENBLAS_NUM_THREADS" not in os.environ and os.environ["OMP_NUM_THREADS"] == "3"


#: A check that fails (``c``), and prose that binds it: once as the verdict on a paper's claim, once as a
#: sentence in the book's own voice.
VOICES = (
    "\n\nThe paper claims it {badge}`p003-fig1/c`. The book finds that it holds here {holds}`p003-fig1/c`.\n"
)


def test_a_sentence_in_the_book_s_voice_must_hold_at_the_paper_s_setting(
    book_root: Path, capsys: pytest.CaptureFixture
) -> None:
    """In quick mode the contradicted sentence is counted in the summary; a full run at the default
    parameters fails, naming the chapter, the check and the sentence, and keeps the earlier results."""
    fake_book(book_root, {"power-tradeoff": CHECKS})
    source = book_root / "chapters" / "01_power_tradeoff.md"
    source.write_text(source.read_text() + VOICES)

    assert book.main(["run", "power-tradeoff"]) == 0
    rows = table(capsys.readouterr().err)
    assert rows["power-tradeoff"][5:] == ["1", "ran"]  # one contradicted sentence (the badge is a verdict)
    before = (book_root / "results" / "power-tradeoff" / "metrics.json").read_bytes()

    assert book.main(["run", "power-tradeoff", "--mode", "full"]) == 2
    err = capsys.readouterr().err
    assert "error: chapter 'power-tradeoff': 1 sentence(s) in the book's own voice do not hold" in err, err
    assert "line 31, {holds}`p003-fig1/c` (its check failed): The book finds that it holds here" in err, err
    assert (book_root / "results" / "power-tradeoff" / "metrics.json").read_bytes() == before

    assert (
        book.main(["run", "power-tradeoff", "--mode", "full", "-p", "alpha", "0.1"]) == 0
    )  # not the defaults
    assert table(capsys.readouterr().err)["power-tradeoff"][0] == "full"
    source.write_text(source.read_text().replace("{holds}`p003-fig1/c`", "{holds}`p003-fig1/a`"))
    assert book.main(["run", "power-tradeoff", "--mode", "full"]) == 0  # a sentence that holds
