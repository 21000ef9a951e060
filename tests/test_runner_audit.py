"""The failures a reliability audit of the runner found, one test each (bad input, faults, signals).

Each trial ends in one ``error:`` or ``interrupted:`` line naming what to fix, with a non-zero exit, no
traceback, previous results untouched and no debris left behind.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_book import HEADER, _pages_only, fake_root
from test_runner_faults import CLI, start

from dpnet import book, cores, sweep
from dpnet.errors import ChapterError, ClusterError, ParameterError

ROOT = Path(__file__).resolve().parents[1]


def error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines and "Traceback" not in err, err
    return lines[-1]


def cli(root: Path, *args: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, str(root), *args], capture_output=True, text=True, timeout=timeout,
        env={**os.environ, **env},
    )  # fmt: skip


@pytest.fixture
def ran(tmp_path: Path) -> Path:
    """A root whose only chapter (the report stand-in) ran once at its default parameters."""
    root = fake_root(tmp_path, "41")
    assert book.run_chapter("reproducibility", root=root) == "ran"
    return root


# 1. A badge whose check this run did not compute ----------------------------------------------------


def test_a_badge_of_a_check_not_computed_shows_a_dash_and_the_html_builds(tmp_path: Path) -> None:
    """The README's own example (other parameters leave a check out) used to stop the HTML build."""
    root = _pages_only(tmp_path, "# A page\n\nThe heat map matches {badge}`p003-fig1/heat-map`.\n")
    html = book._render_html(root, jobs=1)
    page = (html / "book" / "intro.html").read_text()
    assert re.search(r'<span class="badge badge-na badge-not-computed"[^>]*>–</span>', page), page


def test_at_the_defaults_a_mark_must_name_a_recorded_check(ran: Path) -> None:
    """A mark naming no recorded check is a mistake at the default parameters (the run and the HTML
    say which), and a dash under other parameters."""
    source = ran / "chapters" / "reproducibility.md"
    source.write_text(source.read_text() + "\n\nAs the paper says {badge}`p003-fig1/no-such-check`.\n")
    with pytest.raises(ChapterError, match=r"names checks its run did not record: p003-fig1/no-such-check"):
        book.run_chapter("reproducibility", root=ran, force=True)
    with pytest.raises(ChapterError, match=r"'reproducibility' names checks its last run did not record"):
        book._check_last_runs(["reproducibility"], ran)
    assert book.run_chapter("reproducibility", root=ran, force=True, overrides={"seed": 7}) == "ran"
    book._check_last_runs(["reproducibility"], ran)  # other parameters: the mark shows a dash


# 2. A scheduler address that answers but is not Dask, and garbage addresses ------------------------


@pytest.fixture
def web_server() -> Iterator[str]:
    """An HTTP server on a free port of 127.0.0.1: it answers, but not as a Dask scheduler."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_a_scheduler_that_is_not_dask_is_refused_within_seconds(web_server: str, ran: Path) -> None:
    started = time.monotonic()
    proc = cli(ran, "run", "reproducibility", "--force", DPNET_SCHEDULER=web_server, timeout=60)
    assert proc.returncode == 2
    assert error_line(proc.stderr) == (
        f"error: something answers at {web_server}, but not as a Dask scheduler (no greeting within 3 s): "
        "check the address and port, or unset DPNET_SCHEDULER to run here"
    )
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("address", ["garbage", "http://127.0.0.1:8786", "tcp://host", "tcp://h:99999"])
def test_a_garbage_scheduler_address_is_refused_at_once(address: str) -> None:
    started = time.monotonic()
    with pytest.raises(ClusterError, match=r"is not a Dask scheduler address: write it as tcp://host:port"):
        sweep.cluster_client(address)
    assert time.monotonic() - started < 1


def test_a_garbage_address_ends_in_one_line_without_a_traceback(ran: Path) -> None:
    proc = cli(ran, "run", "reproducibility", "--scheduler", "garbage", timeout=60)
    assert proc.returncode == 2 and error_line(proc.stderr).startswith("error: 'garbage' is not a Dask")
    assert "Exception ignored" not in proc.stderr


# 3. More workers than the machine can hold ---------------------------------------------------------


@pytest.mark.parametrize("jobs", ["100000", "1000000000"])
def test_more_workers_than_the_machine_holds_are_refused_up_front(
    jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DPNET_JOBS", jobs)
    top = cores.max_workers()
    with pytest.raises(
        ParameterError, match=rf"^DPNET_JOBS = {int(jobs):,} is more worker processes .* at most {top}$"
    ):
        sweep.default_jobs()
    monkeypatch.setenv("DPNET_JOBS", str(top))
    assert sweep.default_jobs() == top


# 4. Parameter values are data -----------------------------------------------------------------------

#: "A billion laughs": nine levels of anchors, each ten aliases of the last (412 characters).
LAUGHS = "[" + ", ".join(
    [f"&a0 [{'lol, ' * 9}lol]"] + [f"&a{k} [{', '.join([f'*a{k - 1}'] * 10)}]" for k in range(1, 9)]
) + "]"  # fmt: skip


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (LAUGHS, r"anchors and aliases \(& and \*\) are not accepted"),
        ("&a [*a]", r"anchors and aliases"),
        ("9" * 5000, r"the value is 5,000 characters long; a parameter value is at most 2,000"),
        ("9" * 100, r"a number with more than 30 digits is not a parameter value"),
        ("[1, 2" + ", 3" * 60_000, r"the value is 180,005 characters long"),
    ],
)
def test_a_parameter_value_is_read_as_plain_data(value: str, message: str) -> None:
    started = time.monotonic()
    with pytest.raises(ParameterError, match=message) as info:
        book.read_value("n_values", value)
    assert len(str(info.value)) < 300 and time.monotonic() - started < 1


def test_a_huge_value_ends_in_one_short_line(ran: Path) -> None:
    proc = cli(ran, "run", "reproducibility", "-p", "seed", LAUGHS)
    assert proc.returncode == 2 and error_line(proc.stderr).startswith("error: -p 'seed': cannot read")


# 5. Corrupted bookkeeping ---------------------------------------------------------------------------


@pytest.mark.parametrize("content", ['{"sha256": "abc', "[]", ""])
def test_a_corrupt_fingerprint_is_named_and_the_chapter_runs_again(ran: Path, content: str) -> None:
    (ran / "results" / "reproducibility" / "fingerprint.json").write_text(content)
    listed = cli(ran, "list")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert re.search(
        r"reproducibility .* last run: unknown: .*fingerprint\.json .*re-run the chapter", listed.stdout
    )
    assert book.run_chapter("reproducibility", root=ran) == "ran"  # not "up to date"


def test_a_truncated_metrics_file_is_run_again_not_cached(ran: Path) -> None:
    metrics = ran / "results" / "reproducibility" / "metrics.json"
    metrics.write_text(metrics.read_text()[:40])
    assert book.run_chapter("reproducibility", root=ran) == "ran"
    metrics.write_text(metrics.read_text()[:40])
    with pytest.raises(ChapterError, match=r"metrics\.json cannot be read .*: re-run the chapter"):
        book._check_last_runs(["reproducibility"], ran)


# 6. A syntax error in a chapter's code cell ---------------------------------------------------------


def test_a_syntax_error_in_a_cell_names_the_chapter_and_the_line(ran: Path) -> None:
    source = ran / "chapters" / "reproducibility.md"
    source.write_text(source.read_text() + "\n```{code-cell} ipython3\nx = {1: 2\n```\n")
    proc = cli(ran, "run", "reproducibility")
    assert proc.returncode == 2
    line = source.read_text().splitlines().index("x = {1: 2") + 1
    assert error_line(proc.stderr) == (
        f"error: chapter 'reproducibility': code cell 3 (reproducibility.md, line {line}) is not valid "
        "Python: '{' was never closed: 'x = {1: 2'; fix the cell"
    )


# 7. SIGKILL during a parallel sweep -----------------------------------------------------------------

SWEEP = """
import time
from dpnet.sweep import run_sweep

def nap(task, rng):
    time.sleep(60)

run_sweep(nap, list(range(4)), seed=0, desc="naps")
"""


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find the worker processes")
def test_workers_do_not_outlive_a_run_killed_outright(tmp_path: Path) -> None:
    root = fake_root(tmp_path, "1")
    source = root / "chapters" / "reproducibility.md"
    source.write_text(source.read_text() + f"\n```{{code-cell}} ipython3\n{SWEEP}\n```\n")
    marker = f"DPNET_TEST_MARKER={uuid.uuid4().hex}"
    child = start(root, "run", "reproducibility", DPNET_JOBS="2", DPNET_TEST_MARKER=marker.split("=")[1])
    deadline = time.monotonic() + 120
    while len(_processes_with(marker)) < 4 and time.monotonic() < deadline:  # runner, kernel, 2 workers
        time.sleep(0.5)
    assert len(_processes_with(marker)) >= 4, "the sweep's workers never started"
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=30)
    deadline = time.monotonic() + 20
    while _processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _processes_with(marker) == [], "processes of the killed run are still alive"


# 8. Ctrl-C during html ------------------------------------------------------------------------------


def test_ctrl_c_during_html_leaves_no_staging_and_says_what_it_kept(tmp_path: Path) -> None:
    ran = _pages_only(tmp_path, "# A page\n\nSome text.\n", pages=12)
    (ran / "chapters").mkdir()
    (ran / "chapters" / "reproducibility.md").write_text(HEADER.replace("BODY", "41"))
    toc = ran / "_toc.yml"
    toc.write_text(toc.read_text() + "  - file: chapters/reproducibility\n")
    child = start(ran, "html")
    deadline = time.monotonic() + 120
    while not (ran / "_build" / "src").exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # Sphinx is building
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    assert error_line(err) == "interrupted: the HTML was not built; _build/html is unchanged"
    assert not (ran / "_build" / "staging").exists() and not (ran / "_build" / "src").exists()


# 9. The lesser ones ---------------------------------------------------------------------------------


def test_results_that_are_a_file_leave_nothing_behind(ran: Path) -> None:
    target = ran / "results" / "reproducibility"
    shutil.rmtree(target)
    target.write_text("not a directory")
    assert book.run_chapter("reproducibility", root=ran, force=True) == "ran"
    assert target.is_dir() and not list((ran / "results").glob(".old-*"))


def test_an_old_file_left_by_a_dead_run_is_swept(ran: Path) -> None:
    from dpnet import workspace

    left = ran / "results" / ".old-reproducibility-999999999-abcdef12"
    left.write_text("what a killed run swapped out")
    assert left in workspace.sweep_stale(ran / "results") and not left.exists()


def test_ctrl_c_while_the_library_loads_prints_no_traceback() -> None:
    """The interrupt arrives while the command line imports its libraries (``-X importtime`` tells when
    YAML, the first of them, has loaded)."""
    child = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "dpnet.book", "list"], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert child.stderr is not None
    for line in child.stderr:
        if line.rstrip().endswith("| yaml"):
            break
    child.send_signal(signal.SIGINT)
    rest = child.stderr.read()
    child.wait(timeout=60)
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest, rest
    assert child.returncode == 130 and rest.strip().splitlines()[-1] == "interrupted: nothing was changed"


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([("alpha", "1.5"), ("alpha", "0.1")], r"^-p 'alpha' is given twice \('1\.5', then '0\.1'\)"),
        ([("", "0.1")], r"^-p '' names no parameter"),
    ],
)
def test_a_repeated_or_empty_name_is_refused(pairs: list[tuple[str, str]], message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        book._parse_overrides(pairs)


def test_a_look_alike_name_is_quoted_and_its_odd_letters_named() -> None:
    with pytest.raises(ParameterError, match=r"unknown parameter\(s\) 'аlpha' \(not ASCII: 'а' U\+0430\)"):
        book.resolve_parameters(book.get_chapter("power-tradeoff"), None, {"аlpha": 0.1})


def test_a_long_value_is_not_echoed_whole() -> None:
    with pytest.raises(ParameterError) as info:
        book.resolve_parameters(book.get_chapter("power-tradeoff"), None, {"alpha": "x" * 100_000})
    assert len(str(info.value)) < 300 and "100,002 characters" in str(info.value)


def test_an_absurd_size_is_shown_as_a_power_of_ten() -> None:
    with pytest.raises(ParameterError) as info:
        book.resolve_parameters(book.get_chapter("power-tradeoff"), None, {"n_values": [10, 10**300]})
    assert re.search(r"needs about [\d.]+·10[⁰¹²³⁴⁵⁶⁷⁸⁹]+ GiB of memory", str(info.value)), str(info.value)
    assert len(str(info.value)) < 300


def test_make_chapter_takes_its_id_as_one_word(tmp_path: Path) -> None:
    witness = tmp_path / "ran"
    for ch in (f"x; touch {witness}", f"$(shell touch {witness})", f"`touch {witness}`"):
        proc = subprocess.run(
            ["make", "--no-print-directory", "chapter", f"CH={ch}", "MODE=quick"], cwd=ROOT,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert proc.returncode != 0 and "unknown chapter id" in proc.stderr + proc.stdout, proc.stderr
        assert not witness.exists(), ch


def test_the_table_of_contents_is_read_as_utf8_whatever_the_locale() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dpnet.book", "list"], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "LC_ALL": "POSIX", "PYTHONUTF8": "0"}, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "power-tradeoff" in proc.stdout
