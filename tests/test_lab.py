"""A chapter run by hand in JupyterLab, as the README tells a reader to, in headless Chromium.

A JupyterLab server (the optional ``lab`` extra) is started as ``make lab`` starts it, with the
repository's ``lab/overrides.json`` (jupytext's notebook is the default viewer of Markdown), on
127.0.0.1 at a free port, with a token set here, no browser, and its runtime, configuration, settings
and workspaces in a temporary directory. It serves a copy of Chapter 1's MyST source. Chromium
(``tests/chromium.py``, no host but 127.0.0.1 reachable) opens the chapter at its ``/lab/tree/`` address
and drives JupyterLab through its own app object (``--LabApp.expose_app_in_browser``:
``window.jupyterapp``): it runs every cell (``notebook:run-all-cells``) at the chapter's quick defaults.
The tests check that the chapter opened as a notebook with its kernel, that no cell shows an error,
that the chapter's first figure appears, and that the run wrote to ``results/_interactive/<id>/``
(under a temporary ``DPNET_RESULTS_ROOT``). Then ``alpha = 1.5`` is added to the parameters cell and
the cells are run again: the chapter stops with the command line's message.

Skipped, saying why, without JupyterLab (``make lab-env`` installs it; ``.ci/run`` does) or without
Chromium. The server and its kernels are stopped at the end, whatever happens. A screenshot of the
figure in JupyterLab is saved in ``_build/lab-screenshots/``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from chromium import Chromium, Tab, Traffic, read_events, require_chromium

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "_build" / "lab-screenshots"
CHAPTER = "01_power_tradeoff"
CHAPTER_ID = "power-tradeoff"
FIRST_FIGURE = "p003-fig1"
BAD_VALUE = ("alpha", "1.5")
START_TIMEOUT = 180.0  # seconds for the server to answer
OPEN_TIMEOUT = 180.0  # for the notebook and its kernel
RUN_TIMEOUT = 600.0  # for every cell (about 30 s alone; longer beside a book build on 2 cores)

#: What the test adds to the repository's overrides: no news or update check (nothing leaves the
#: machine), every cell in the page (JupyterLab otherwise attaches only those in view).
TEST_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}
#: Variables of the test session that a reader's JupyterLab would not have.
NOT_INHERITED = ("MPLBACKEND", "DPNET_PROGRESS", "DPNET_RESULTS_DIR", "DPNET_PROGRESS_LOG", "JUPYTER_PATH",
                 "JUPYTER_CONFIG_PATH", "JUPYTER_TOKEN")  # fmt: skip

pytestmark = pytest.mark.lab


# --- the server ----------------------------------------------------------------------------------


@dataclass
class Server:
    url: str  # http://127.0.0.1:<port>/
    token: str
    root: Path  # what it serves: chapters/<CHAPTER>.md
    results: Path  # DPNET_RESULTS_ROOT of its kernels
    log: Path


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _descendants(pid: int) -> dict[int, bytes]:
    """The processes started under ``pid``, with their command lines, from Linux's ``/proc`` (elsewhere:
    none found)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: dict[int, bytes] = {}
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found[child] = _cmdline(child)
            todo.append(child)
    return found


def _request(server_url: str, token: str, path: str, method: str = "GET") -> Any:
    request = urllib.request.Request(
        server_url + path, method=method, headers={"Authorization": f"token {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        body = reply.read()
    return json.loads(body) if body else None


def _stop(process: subprocess.Popen[bytes], url: str | None, token: str) -> None:
    """Stop the server and its kernels: through its API, else by signals, and what it started too."""
    started = _descendants(process.pid)  # the kernels run in sessions of their own
    if url and process.poll() is None:
        with contextlib.suppress(Exception):
            _request(url, token, "api/shutdown", method="POST")  # shuts the kernels down first
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)  # whatever is left of the server's process group
    for pid, cmdline in started.items():  # what it started in sessions of their own, if any is left
        if cmdline and _cmdline(pid) == cmdline:  # the same process, not a new one with its number
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def jupyterlab(tmp: Path) -> Iterator[Server]:
    """JupyterLab as ``make lab`` starts it, serving a copy of the chapter, in ``tmp``."""
    token = secrets.token_hex(16)
    root, results, runtime, settings = tmp / "root", tmp / "results", tmp / "runtime", tmp / "app-settings"
    for folder in (root / "chapters", results, runtime, settings):
        folder.mkdir(parents=True)
    (root / "chapters" / f"{CHAPTER}.md").write_bytes((ROOT / "chapters" / f"{CHAPTER}.md").read_bytes())
    overrides = json.loads((ROOT / "lab" / "overrides.json").read_text(encoding="utf-8"))
    for plugin, values in TEST_SETTINGS.items():
        overrides.setdefault(plugin, {}).update(values)
    (settings / "overrides.json").write_text(json.dumps(overrides, indent=2), encoding="utf-8")
    env = {name: value for name, value in os.environ.items() if name not in NOT_INHERITED}
    env.update(
        DPNET_RESULTS_ROOT=str(results),
        JUPYTER_RUNTIME_DIR=str(runtime),
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTER_DATA_DIR=str(tmp / "data"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "user-settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
        IPYTHONDIR=str(tmp / "ipython"),
    )
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port=0", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}", "--ServerApp.allow_root=True",
        f"--LabApp.app_settings_dir={settings}", "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
        "--LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate",
    ]  # fmt: skip
    log = tmp / "jupyterlab.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    url = None
    try:
        url = _wait_for_server(process, runtime, token, log)
        yield Server(url, token, root, results, log)
    finally:
        _stop(process, url, token)


def _wait_for_server(process: subprocess.Popen[bytes], runtime: Path, token: str, log: Path) -> str:
    """The server's address, once its runtime file names it and it answers."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited ({process.returncode}):\n{log.read_text()[-3000:]}")
        info = runtime / f"jpserver-{process.pid}.json"
        with contextlib.suppress(OSError, ValueError):
            url = json.loads(info.read_text())["url"]
            _request(url, token, "api/status")
            return url
        time.sleep(0.25)
    raise TimeoutError(f"JupyterLab did not answer in {START_TIMEOUT:.0f} s:\n{log.read_text()[-3000:]}")


# --- what Chromium does in JupyterLab ------------------------------------------------------------

# The notebook JupyterLab opened for the chapter's address, once its kernel is ready.
OPENED = r"""
(async () => {
  const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
  for (let waited = 0; !window.jupyterapp && waited < TIMEOUT_MS; waited += 100) await sleep(100);
  const app = window.jupyterapp;
  if (!app) return {error: "window.jupyterapp never appeared"};
  await app.restored;
  let widget = null;
  for (let waited = 0; waited < TIMEOUT_MS; waited += 100) {
    widget = app.shell.currentWidget;
    if (widget && widget.context && widget.context.path === PATH) break;
    await sleep(100);
  }
  if (!widget || !widget.context || widget.context.path !== PATH) return {error: "the chapter did not open"};
  await widget.context.ready;
  const notebook = widget.node.classList.contains("jp-NotebookPanel");
  if (notebook) await widget.sessionContext.ready;
  const kernel = notebook ? widget.sessionContext.session?.kernel : null;
  return {
    notebook: notebook,
    classes: widget.node.className,
    cells: notebook ? widget.content.widgets.length : 0,
    kernel: kernel ? kernel.name : null,
  };
})()
""".replace("TIMEOUT_MS", f"{OPEN_TIMEOUT * 1000:.0f}")

# Run every cell of the current notebook; true when every cell ran without an error.
RUN_ALL = "window.jupyterapp.commands.execute('notebook:run-all-cells')"

# Add a line to the parameters cell (the cell tagged "parameters").
SET_PARAMETER = r"""
(() => {
  const cells = window.jupyterapp.shell.currentWidget.content.widgets;
  const cell = cells.find(c => (c.model.getMetadata("tags") || []).includes("parameters"));
  cell.model.sharedModel.setSource(cell.model.sharedModel.getSource().trimEnd() + "\n" + LINE);
  return cell.model.sharedModel.getSource();
})()
"""

# The code cells as the reader sees them: their source, the outputs in the notebook's model, and
# the images and tracebacks on the page.
CELLS = r"""
(async () => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.widgets.filter(c => c.model.type === "code");
  const images = cells.map(c => [...c.node.querySelectorAll(".jp-OutputArea-output img")]);
  await Promise.all(images.flat().map(img => img.decode().catch(() => null)));
  return cells.map((c, i) => ({
    source: c.model.sharedModel.getSource(),
    count: c.model.executionCount,
    outputs: c.model.outputs.toJSON().map(o => ({
      type: o.output_type,
      mimes: Object.keys(o.data || {}),
      ename: o.ename || null,
      evalue: o.evalue || null,
    })),
    images: images[i].map(img => img.complete && img.naturalWidth > 0 ? img.naturalWidth : 0),
    tracebacks: [...c.node.querySelectorAll(".jp-OutputArea-output")]
      .map(el => el.innerText).filter(text => text.includes("Traceback (most recent call last)"))
      .map(text => text.slice(0, 300)),
  }));
})()
"""

# Scroll the n-th code cell into view (for the screenshot).
SCROLL_TO = r"""
(() => {
  const cells = window.jupyterapp.shell.currentWidget.content.widgets.filter(c => c.model.type === "code");
  cells[INDEX].node.scrollIntoView({block: "start"});
  return true;
})()
"""


@dataclass
class LabRun:
    """What the chapter showed in JupyterLab: once run at its defaults, once with a bad value."""

    opened: dict[str, Any]
    ran_clean: bool  # what notebook:run-all-cells answered
    cells: list[dict[str, Any]]
    seconds: float  # to run every cell
    written: list[str]  # files under results/_interactive/<id>/, relative to it
    parameters_cell: str  # its source with the bad value
    bad_ran_clean: bool
    bad_cells: list[dict[str, Any]]
    cli_message: str  # the command line's message for the same bad value
    traffic: Traffic


def _cli_message(process: subprocess.Popen[str]) -> str:
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 2, stderr
    (line,) = [line for line in stderr.splitlines() if line.startswith("error: ")]
    return line.removeprefix("error: ")


def _require_jupyterlab() -> None:
    if importlib.util.find_spec("jupyterlab") is None:
        pytest.skip(
            "JupyterLab is not installed: it is the optional `lab` extra "
            "(make lab-env, or pip install -e '.[lab]'; .ci/run installs it)"
        )


@pytest.fixture(scope="module")
def lab_run() -> LabRun:
    """Chapter 1 opened in JupyterLab in headless Chromium, run at its defaults, then with a bad value."""
    _require_jupyterlab()
    binary = require_chromium("JupyterLab")
    # the command line's answer to the same bad value, meanwhile (it stops before running anything)
    cli = subprocess.Popen(
        [sys.executable, "-m", "dpnet.book", "run", CHAPTER_ID, "-p", *BAD_VALUE],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    path = f"chapters/{CHAPTER}.md"
    with (
        contextlib.ExitStack() as stack,
        tempfile.TemporaryDirectory(prefix="dpnet-lab-", ignore_cleanup_errors=True) as tmp,
        jupyterlab(Path(tmp) / "lab") as server,
    ):
        stack.callback(lambda: cli.poll() is None and cli.kill())  # if the test failed before reading it
        browser = Chromium(binary, Path(tmp) / "profile")
        try:
            tab = Tab(browser)
            tab.open(f"{server.url}lab/tree/{path}?token={server.token}")
            opened = tab.evaluate(OPENED.replace("PATH", json.dumps(path)), OPEN_TIMEOUT)
            assert opened.get("notebook"), f"{path} did not open as a notebook: {opened}"
            start = time.perf_counter()
            ran_clean = tab.evaluate(RUN_ALL, RUN_TIMEOUT)
            seconds = time.perf_counter() - start
            cells = tab.evaluate(CELLS)
            figures = [i for i, cell in enumerate(cells) if any(cell["images"])]
            if figures:
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                tab.evaluate(SCROLL_TO.replace("INDEX", str(figures[0])))
                tab.screenshot(SCREENSHOTS / f"{CHAPTER}.png")
            interactive = server.results / "_interactive" / CHAPTER_ID
            written = sorted(f.relative_to(interactive).as_posix() for f in interactive.rglob("*.*"))
            line = " = ".join(BAD_VALUE)
            parameters_cell = tab.evaluate(SET_PARAMETER.replace("LINE", json.dumps(line)))
            bad_ran_clean = tab.evaluate(RUN_ALL, RUN_TIMEOUT)
            bad_cells = tab.evaluate(CELLS)
            traffic = read_events(browser.events, tab.session, server.url)
        finally:
            browser.close()
        cli_message = _cli_message(cli)
    return LabRun(
        opened, ran_clean, cells, seconds, written, parameters_cell, bad_ran_clean, bad_cells, cli_message,
        traffic,
    )  # fmt: skip


def _errors(cells: list[dict[str, Any]]) -> list[str]:
    """The errors the cells show: error outputs in the model, tracebacks on the page."""
    problems = []
    for cell in cells:
        head = cell["source"].splitlines()[0] if cell["source"] else ""
        problems += [f"[{head}] {o['ename']}: {o['evalue']}" for o in cell["outputs"] if o["type"] == "error"]
        problems += [f"[{head}] traceback shown: {text!r}" for text in cell["tracebacks"]]
    return problems


# --- the checks ----------------------------------------------------------------------------------


def test_the_chapter_opens_as_a_notebook_with_its_kernel(lab_run: LabRun) -> None:
    """Its MyST source opens in jupytext's notebook (the default viewer lab/overrides.json sets), not
    in the text editor, with the chapter's kernel."""
    assert lab_run.opened["notebook"], lab_run.opened
    assert lab_run.opened["cells"] >= 10
    assert lab_run.opened["kernel"] == "python3"


def test_every_cell_runs_without_an_error(lab_run: LabRun) -> None:
    print(f"\nevery cell of {CHAPTER} ran in {lab_run.seconds:.1f} s in JupyterLab")
    assert _errors(lab_run.cells) == []
    assert lab_run.ran_clean, "notebook:run-all-cells reported a failure"
    not_run = [cell["source"][:60] for cell in lab_run.cells if cell["count"] is None]
    assert not_run == [], f"cells that did not run: {not_run}"


def test_the_chapters_first_figure_appears(lab_run: LabRun) -> None:
    """The first image the chapter shows is its first figure, as a PNG output, loaded on the page."""
    with_images = [cell for cell in lab_run.cells if any("image/png" in o["mimes"] for o in cell["outputs"])]
    assert with_images, "no cell shows a figure"
    first = with_images[0]
    assert f'"{FIRST_FIGURE}"' in first["source"] and "results.figure(" in first["source"], first["source"]
    assert first["images"] and all(width > 0 for width in first["images"]), first["images"]


def test_the_run_writes_to_results_interactive(lab_run: LabRun) -> None:
    """A notebook run by hand writes to results/_interactive/<id>/ (README), never beside a build's."""
    expected = {"metrics.json", f"figures/{FIRST_FIGURE}.png", f"tables/{FIRST_FIGURE}.csv"}
    assert expected <= set(lab_run.written), lab_run.written


def test_a_bad_value_in_the_parameters_cell_gets_the_command_lines_message(lab_run: LabRun) -> None:
    assert lab_run.parameters_cell.endswith("\nalpha = 1.5")
    assert lab_run.cli_message == "alpha must be a real number in the open interval (0, 1) (got 1.5)"
    assert not lab_run.bad_ran_clean
    errors = [(cell["source"], out) for cell in lab_run.bad_cells for out in cell["outputs"]
              if out["type"] == "error"]  # fmt: skip
    assert errors, "the bad value ran without an error"
    source, error = errors[0]
    assert "chapters.start(" in source  # refused where the parameters are resolved, before anything ran
    assert (error["ename"], error["evalue"]) == ("ParameterError", lab_run.cli_message)


def test_nothing_failed_in_the_browser_or_left_the_machine(lab_run: LabRun) -> None:
    traffic = lab_run.traffic
    problems = (
        traffic.console_errors
        + [f"failed to load {r}" for r in traffic.failed_requests]
        + [f"requested {url} outside the server" for url in traffic.outside_requests]
    )
    assert not problems, "\n".join(problems)
