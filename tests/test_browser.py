"""The built book in a real browser: headless Chromium opens every page from a local HTTP server.

Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it on CI) is driven through its DevTools
protocol over a websocket (tornado's client). Nothing is downloaded at run time, and no request
leaves the machine: Chromium resolves no host name but ``localhost``, so a page that needs the
internet (MathJax from a CDN, say) fails here as it would for a reader offline. Without a Chromium
binary the tests are skipped, saying so.

Every page of the quick build (the session's ``quick_book``, tests/conftest.py) is loaded once, and
the findings are checked by the tests below, one kind of problem each: JavaScript errors and
resources that failed or came from outside; images that did not load; formulas MathJax did not
typeset; the search page; the report's links into the chapters; error output, stray string reprs
and "nan" shown as numbers. A screenshot of each page's first screen is saved in
``_build/screenshots/`` for a human look.

``DPNET_BOOK_HTML=_build/html pytest tests/test_browser.py`` checks an already built book instead
(``python -m dpnet.book html`` builds one from the chapters' last results); ``DPNET_CHROMIUM``
names the browser binary when it is not on the ``PATH``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "_build" / "screenshots"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
REPORT_PAGE = "chapters/reproducibility.html"
SEARCH_PAGE = "search.html"
SEARCH_WORD = "Laplace"
WINDOW = (1280, 900)
LOAD_TIMEOUT = 60.0  # seconds for a page, its images and its formulas (2 shared cores)

pytestmark = pytest.mark.book


def chromium_binary() -> str | None:
    """``DPNET_CHROMIUM``, else the first Chromium or Chrome on the ``PATH``."""
    if os.environ.get("DPNET_CHROMIUM"):
        return os.environ["DPNET_CHROMIUM"]
    return next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)


# --- Chromium through the DevTools protocol ------------------------------------------------------


class DevToolsError(RuntimeError):
    pass


class Chromium:
    """A headless Chromium and one DevTools websocket to it (flat sessions, one per tab)."""

    FLAGS = (
        "--headless=new",
        "--remote-debugging-port=0",  # Chromium picks a free port and writes it to DevToolsActivePort
        "--no-sandbox",  # CI runs as root
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-gpu",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--hide-scrollbars",
        "--mute-audio",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",  # offline: nothing else resolves
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
    )

    def __init__(self, binary: str, profile: Path, timeout: float = 60.0) -> None:
        self.log = profile.parent / "chromium.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [binary, *self.FLAGS, f"--user-data-dir={profile}", "about:blank"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.events: list[dict[str, Any]] = []
        self._id = 0
        self.loop = asyncio.new_event_loop()
        try:
            port, path = self._active_port(profile / "DevToolsActivePort", timeout)
            self.ws = self.loop.run_until_complete(self._connect(f"ws://127.0.0.1:{port}{path}"))
        except BaseException:
            self.close()
            raise

    def _active_port(self, file: Path, timeout: float) -> tuple[str, str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise DevToolsError(f"Chromium exited ({self.process.returncode}): {self._log_tail()}")
            lines = file.read_text().split() if file.exists() else []
            if len(lines) == 2:
                return lines[0], lines[1]
            time.sleep(0.1)
        raise DevToolsError(f"Chromium wrote no DevToolsActivePort in {timeout:.0f} s: {self._log_tail()}")

    def _log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""

    @staticmethod
    async def _connect(url: str) -> Any:
        from tornado.websocket import websocket_connect

        return await websocket_connect(url, max_message_size=256 * 2**20)  # screenshots are large

    async def _send(self, text: str) -> None:
        await self.ws.write_message(text)

    async def _read(self, timeout: float) -> str | None:
        return await asyncio.wait_for(self.ws.read_message(), timeout)

    def _receive(self, deadline: float, what: str) -> dict[str, Any]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no answer from Chromium: {what}")
        try:
            raw = self.loop.run_until_complete(self._read(remaining))
        except asyncio.TimeoutError:
            raise TimeoutError(f"no answer from Chromium: {what}") from None
        if raw is None:
            raise DevToolsError(f"Chromium closed the DevTools connection: {self._log_tail()}")
        message = json.loads(raw)
        if "method" in message:
            self.events.append(message)
        return message

    def call(self, method: str, session: str | None = None, timeout: float = 60.0, **params: Any) -> Any:
        """Send a command and wait for its result; events that arrive meanwhile are kept."""
        self._id += 1
        command: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session:
            command["sessionId"] = session
        self.loop.run_until_complete(self._send(json.dumps(command)))
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline, method)
            if message.get("id") == self._id:
                if "error" in message:
                    raise DevToolsError(f"{method}: {message['error']}")
                return message["result"]

    def wait_for(self, event: str, session: str, since: int, timeout: float) -> dict[str, Any]:
        """The first ``event`` of ``session`` among the events from index ``since`` on."""
        deadline = time.monotonic() + timeout
        index = since
        while True:
            for message in self.events[index:]:
                if message["method"] == event and message.get("sessionId") == session:
                    return message["params"]
            index = len(self.events)
            self._receive(deadline, event)

    def close(self) -> None:
        """Close the browser, then end whatever is left of the process group it was started in."""
        if getattr(self, "ws", None) is not None:
            with contextlib.suppress(Exception):
                self.call("Browser.close", timeout=10)
            self.ws.close()
        self.loop.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)  # the renderers, if any outlived the browser


class Tab:
    """One page of the browser, with the Page, Runtime, Log and Network events enabled."""

    def __init__(self, browser: Chromium) -> None:
        self.browser = browser
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=WINDOW[0], height=WINDOW[1],
                  deviceScaleFactor=1, mobile=False)  # fmt: skip

    def call(self, method: str, timeout: float = 60.0, **params: Any) -> Any:
        return self.browser.call(method, self.session, timeout, **params)

    def open(self, url: str) -> None:
        """Load ``url`` (until its load event); the browser's events are cleared first."""
        self.browser.events.clear()
        navigation = self.call("Page.navigate", url=url)
        if navigation.get("errorText"):
            raise DevToolsError(f"{url}: {navigation['errorText']}")
        self.browser.wait_for("Page.loadEventFired", self.session, 0, LOAD_TIMEOUT)

    def evaluate(self, expression: str, timeout: float = LOAD_TIMEOUT) -> Any:
        reply = self.call("Runtime.evaluate", timeout, expression=expression, awaitPromise=True,
                          returnByValue=True)  # fmt: skip
        if "exceptionDetails" in reply:
            raise DevToolsError(f"script failed: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(self, path: Path) -> None:
        self.evaluate("window.scrollTo(0, 0)")
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))


# --- what is read from each page -----------------------------------------------------------------

# Run in the page after its load event: waits for the images (lazy ones made eager) and for MathJax's
# first typesetting, then reports what the tests check. "Prose" is the rendered text outside code
# listings (a listing may hold a legitimate "\(" or "nan"), the typeset formulas and the search
# page's excerpts (plain text cut from the pages' sources, TeX included, as Sphinx makes them).
PAGE_CHECKS = r"""
(async () => {
  const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
  const within = (promise, ms) => Promise.race([promise, sleep(ms)]);
  const clip = (text, n = 120) => text.replace(/\s+/g, " ").trim().slice(0, n);

  for (const img of document.images) img.loading = "eager";
  await within(Promise.all([...document.images].map(img => img.complete ? null :
    new Promise(done => { img.addEventListener("load", done); img.addEventListener("error", done); }))),
    LOAD_MS);

  // after the load event MathJax has run or failed to load (scripts, deferred or async, come first)
  const math = [...document.querySelectorAll("span.math, div.math")];
  let mathjax = null;
  if (math.length) {
    const ready = () => window.MathJax && MathJax.startup && MathJax.startup.promise;
    for (let waited = 0; !ready() && waited < MATHJAX_MS; waited += 100) await sleep(100);
    if (ready()) {
      await within(MathJax.startup.promise, LOAD_MS);
      mathjax = MathJax.version || "?";
    }
  }

  const code = "pre, code, script, style, noscript, textarea, mjx-container, .highlight, #search-results";
  const prose = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const parent = walker.currentNode.parentElement;
    if (parent && !parent.closest(code) && parent.checkVisibility()) prose.push(walker.currentNode.nodeValue);
  }
  const quoted = text => /^(['"])[\s\S]*\1$/.test(text) && text.length >= 2;
  const outputs = "article p, article span.pasted-text, article div.output.text_plain pre";
  const strays = [...document.querySelectorAll(outputs)]
    .map(el => el.innerText.trim()).filter(quoted).map(text => clip(text));

  // "nan" where numbers are shown: table cells, glued values, cell outputs, or next to a number or sign
  const numbers = "td, th, .pasted-text, .pasted-inline, .cell_output";
  const nan = /(?<![\w.])[-+]?nan(?![\w(])/i;
  const nearNumber = /(?:[=≈≤≥<>±(]|\d\s*[,;/])\s*[-+]?nan\b|\bnan\s*(?:%|±|[-+×*/]\s*\d)/i;
  const nans = [...document.querySelectorAll(numbers)]
    .filter(el => !el.closest(code) && nan.test(el.innerText)
      && ![...el.querySelectorAll(numbers)].some(inner => nan.test(inner.innerText)))  // the innermost only
    .map(el => clip(el.closest("tr")?.innerText || el.innerText));
  const proseText = prose.join(" ");
  for (const match of proseText.matchAll(new RegExp(nearNumber, "gi"))) {
    nans.push(clip(proseText.slice(Math.max(match.index - 60, 0), match.index + 30)));
  }

  return {
    url: location.href,
    title: document.title,
    images: document.images.length,
    brokenImages: [...document.images].filter(img => !(img.complete && img.naturalWidth > 0))
      .map(img => img.getAttribute("src")),
    math: math.length,
    mathjax: mathjax,
    typeset: document.querySelectorAll("mjx-container").length,
    untypeset: math.filter(el => !el.querySelector("mjx-container")).map(el => clip(el.textContent)),
    texErrors: [...document.querySelectorAll("mjx-merror, mjx-mtext[style*='color: red']")]
      .map(el => clip(el.closest("mjx-container")?.querySelector("mjx-assistive-mml")?.textContent
                      || el.textContent)),
    prose: proseText,
    nans: [...new Set(nans)],
    traceback: clip((document.body.innerText.match(/Traceback \(most recent call last\)[\s\S]{0,80}/)
                     || [""])[0]),
    errorOutputs: [...document.querySelectorAll(".output.error, .output.traceback, .output.stderr")]
      .map(el => clip(el.innerText)),
    strays: strays,
    ids: [...document.querySelectorAll("[id]")].map(el => el.id),
    links: [...document.querySelectorAll("a[href*='#']")].map(a => a.href),
    downloads: [...document.querySelectorAll("a.btn-download-source-button, a.download")].map(a => a.href),
    launches: [...document.querySelectorAll("a[href*='mybinder.org']")].map(a => a.href),
    searchResults: document.querySelectorAll("#search-results li").length,
  };
})()
""".replace("LOAD_MS", str(int(LOAD_TIMEOUT * 1000))).replace("MATHJAX_MS", "2000")

# The search page fills its list after loading the index: wait until it has, or says it found nothing.
SEARCH_RESULTS = r"""
(async () => {
  for (let waited = 0; waited < 30000; waited += 100) {
    const status = document.querySelector("#search-results p.search-summary, #search-results p");
    const listed = document.querySelectorAll("#search-results li").length;
    if (listed || (status && /found|no/i.test(status.innerText))) break;
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  return [...document.querySelectorAll("#search-results li a")].map(a => a.innerText.trim());
})()
"""


@dataclass
class Page:
    """What one page showed in the browser."""

    path: str  # relative to the site's root
    found: dict[str, Any]
    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    outside_requests: list[str] = field(default_factory=list)
    search_results: list[str] = field(default_factory=list)


def _read_events(page: Page, events: list[dict[str, Any]], session: str, base: str) -> None:
    requests: dict[str, str] = {}
    for event in events:
        if event.get("sessionId") != session:
            continue
        method, params = event["method"], event["params"]
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            page.console_errors.append(f"uncaught {text.splitlines()[0] if text else details}")
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            page.console_errors.append(f"console.{params['type']}: {args}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            if not entry.get("url", "").endswith("/favicon.ico"):  # the browser's own guess; none is made
                page.console_errors.append(f"{entry['text']} ({entry.get('url', '')})")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            requests[params["requestId"]] = url
            if urlsplit(url).scheme in ("http", "https", "ws", "wss") and not url.startswith(base):
                page.outside_requests.append(url)
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            url = requests.get(params["requestId"], params["requestId"])
            if not url.endswith("/favicon.ico"):
                page.failed_requests.append(f"{url}: {params.get('errorText')}")


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """An HTTP server for ``directory`` on 127.0.0.1 (a free port), in a thread: its base URL."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(directory))
    )
    thread = threading.Thread(target=server.serve_forever, name="book-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def site_pages(html: Path) -> list[str]:
    """Every HTML page of the site, as paths relative to its root (not the assets' folders)."""
    return sorted(
        p.relative_to(html).as_posix()
        for p in html.rglob("*.html")
        if not any(part.startswith("_") for part in p.relative_to(html).parts[:-1])
    )


def redirect_target(page: Path) -> str | None:
    """The target of a ``<meta http-equiv="refresh">`` page (Jupyter Book's index.html), if it is one."""
    match = re.search(r'http-equiv="refresh"[^>]*content="\d+;\s*url=([^"]+)"', page.read_text(), re.I)
    return match.group(1) if match else None


@dataclass
class Visit:
    html: Path
    base: str
    pages: dict[str, Page]
    redirects: dict[str, str]
    seconds: float


@pytest.fixture(scope="module")
def visit(request: pytest.FixtureRequest) -> Visit:
    """Every page of the book opened in headless Chromium (one tab), with a screenshot of each."""
    binary = chromium_binary()
    if binary is None:
        pytest.skip(
            "no Chromium to test the book in: none of " + ", ".join(CHROMIUM_NAMES) + " is on the PATH "
            "and DPNET_CHROMIUM is not set (Debian: apt-get install chromium; .ci/run installs it on CI)"
        )
    if os.environ.get("DPNET_BOOK_HTML"):
        html = Path(os.environ["DPNET_BOOK_HTML"]).resolve()
        assert (html / "index.html").exists(), f"DPNET_BOOK_HTML={html} holds no built book"
    else:
        html = request.getfixturevalue("quick_book").html
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True)
    start = time.perf_counter()
    pages: dict[str, Page] = {}
    redirects: dict[str, str] = {}
    with (
        serve(html) as base,
        tempfile.TemporaryDirectory(prefix="chromium-", ignore_cleanup_errors=True) as tmp,
    ):
        browser = Chromium(binary, Path(tmp) / "profile")
        try:
            tab = Tab(browser)
            for path in site_pages(html):
                if (target := redirect_target(html / path)) is not None:
                    redirects[path] = target
                    continue
                url = urljoin(base, path) + (f"?q={SEARCH_WORD}" if path == SEARCH_PAGE else "")
                tab.open(url)
                page = Page(path, {})
                if path == SEARCH_PAGE:
                    page.search_results = tab.evaluate(SEARCH_RESULTS)
                page.found = tab.evaluate(PAGE_CHECKS)
                tab.screenshot(SCREENSHOTS / (path.removesuffix(".html").replace("/", "__") + ".png"))
                _read_events(page, browser.events, tab.session, base)  # from the navigation on
                pages[path] = page
        finally:
            browser.close()
    return Visit(html, base, pages, redirects, time.perf_counter() - start)


def _problems(visit: Visit, describe: Any) -> list[str]:
    return [f"{path}: {problem}" for path, page in visit.pages.items() for problem in describe(page)]


# --- the checks ----------------------------------------------------------------------------------


def test_every_page_was_opened(visit: Visit) -> None:
    pages = site_pages(visit.html)
    assert {"book/intro.html", REPORT_PAGE, SEARCH_PAGE} <= set(pages)
    assert set(visit.pages) | set(visit.redirects) == set(pages)
    for path, target in visit.redirects.items():  # Jupyter Book's index.html sends the reader on
        assert (visit.html / path).parent.joinpath(target).exists(), f"{path} redirects to missing {target}"
    print(f"\n{len(visit.pages)} pages in {visit.seconds:.1f} s; screenshots in {SCREENSHOTS}")
    for path, page in visit.pages.items():
        found = page.found
        print(f"  {path}: {found['images']} images, {found['math']} formulas, {found['typeset']} typeset"
              + (f" (MathJax {found['mathjax']})" if found["mathjax"] else ""))  # fmt: skip


def test_no_javascript_error_and_nothing_from_outside(visit: Visit) -> None:
    """No uncaught exception or console error; every resource loaded, all from the book's own server."""
    problems = _problems(
        visit,
        lambda page: (
            page.console_errors
            + [f"failed to load {r}" for r in page.failed_requests]
            + [f"loads {url} from outside the book" for url in page.outside_requests]
        ),
    )
    assert not problems, "\n".join(problems)


def test_every_image_loads(visit: Visit) -> None:
    assert sum(page.found["images"] for page in visit.pages.values()) > 0
    problems = _problems(
        visit, lambda page: [f"image {src} did not load" for src in page.found["brokenImages"]]
    )
    assert not problems, "\n".join(problems)


def test_every_formula_is_typeset(visit: Visit) -> None:
    """MathJax (served with the book) typesets every formula: no TeX source is left on the page."""

    def describe(page: Page) -> list[str]:
        found, problems = page.found, []
        if found["untypeset"]:
            problems.append(
                f"{len(found['untypeset'])} of {found['math']} formulas not typeset, e.g. "
                f"{found['untypeset'][0]!r} (MathJax {found['mathjax'] or 'not loaded'})"
            )
        problems += [f"TeX error in {text!r}" for text in found["texErrors"]]
        for delimiter in ("\\(", "\\[", "$$", "\\begin{"):
            if (at := found["prose"].find(delimiter)) >= 0:
                problems.append(f"raw TeX {delimiter!r} in the text: {found['prose'][at : at + 80]!r}")
        return problems

    with_math = [page for page in visit.pages.values() if page.found["math"]]
    assert len(with_math) >= 5, "hardly any page has math: is the book's math still marked up?"
    problems = _problems(visit, describe)
    assert not problems, "\n".join(problems)


def test_search_finds_laplace(visit: Visit) -> None:
    results = visit.pages[SEARCH_PAGE].search_results
    assert results, f"the search page lists nothing for {SEARCH_WORD!r}"


def test_report_links_reach_chapter_anchors(visit: Visit) -> None:
    """Each link of the report to an anchor of a page (a chapter's figure, say) lands on an element with
    that id, as the browser sees the target page."""
    ids = {path: set(page.found["ids"]) for path, page in visit.pages.items()}
    into_chapters, problems = 0, []
    for link in visit.pages[REPORT_PAGE].found["links"]:
        parts = urlsplit(link)
        if not link.startswith(visit.base) or not parts.fragment:
            continue
        target = parts.path.removeprefix(urlsplit(visit.base).path)
        if target not in ids:
            problems.append(f"{link}: no such page")
        elif unquote(parts.fragment) not in ids[target]:
            problems.append(f"{target}#{parts.fragment}: no element has that id")
        into_chapters += target.startswith("chapters/") and target != REPORT_PAGE
    assert into_chapters >= 10, f"only {into_chapters} links of the report reach into the chapters"
    assert not problems, "\n".join(problems)


def test_chapters_offer_their_notebook_source_and_binder(visit: Visit) -> None:
    """Every chapter page offers its executed notebook (the theme's download button) and its MyST source
    (a download link), both served by the site, and a launch button opening the notebook in Binder."""
    chapter_pages = [p for p in visit.pages if re.fullmatch(r"chapters/\d\d_\w+\.html", p)]
    assert len(chapter_pages) == 8, chapter_pages
    problems = []
    for path in chapter_pages:
        found, stem = visit.pages[path].found, Path(path).stem
        wanted = {f"{stem}.ipynb", f"{stem}.md"}
        offered = {Path(urlsplit(link).path).name: link for link in found["downloads"]}
        problems += [f"{path}: no download of {name}" for name in sorted(wanted - set(offered))]
        for name in sorted(wanted & set(offered)):
            served = unquote(urlsplit(offered[name]).path).removeprefix(urlsplit(visit.base).path)
            target = visit.html / served
            if not target.is_file() or target.stat().st_size == 0:
                problems.append(f"{path}: {offered[name]} does not resolve to a file of the site")
        if not any(link.endswith(f"chapters/{stem}.ipynb") for link in found["launches"]):
            problems.append(f"{path}: no Binder launch of chapters/{stem}.ipynb")
    assert not problems, "\n".join(problems)


def test_no_error_output_stray_repr_or_nan(visit: Visit) -> None:
    """No page shows an error or a traceback, a bare string repr, or "nan" where a number belongs."""

    def describe(page: Page) -> list[str]:
        found = page.found
        problems = [f"error output: {out!r}" for out in found["errorOutputs"]]
        problems += [f"traceback: {found['traceback']!r}"] if found["traceback"] else []
        problems += [f"stray string repr: {stray}" for stray in found["strays"]]
        return problems + [f"nan shown: {text!r}" for text in found["nans"]]

    problems = _problems(visit, describe)
    assert not problems, "\n".join(problems)
