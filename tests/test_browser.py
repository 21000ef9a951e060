"""The built book in a real browser: headless Chromium opens every page from a local HTTP server.

Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it on CI) is driven through its DevTools
protocol over a websocket (tornado's client; the driver is ``tests/chromium.py``). Nothing is
downloaded at run time, and no request leaves the machine: Chromium resolves no host name but
``localhost``, so a page that needs the internet (MathJax from a CDN, say) fails here as it would for a
reader offline. Without a Chromium binary the tests are skipped, saying so.

Every page of the quick build (the session's ``quick_book``, tests/conftest.py) is loaded once, and
the findings are checked by the tests below, one kind of problem each: JavaScript errors and
resources that failed or came from outside; images that did not load; formulas MathJax did not
typeset; the search page; the report's links into the chapters; the repository, issues and Binder
buttons, which link only to the repository the book is configured with (dpnet.publishing), and to
none when none is; error output, stray string reprs and "nan" shown as numbers. A screenshot of
each page's first screen is saved in ``_build/screenshots/`` for a human look.

``DPNET_BOOK_HTML=_build/html pytest tests/test_browser.py`` checks an already built book instead
(``python -m dpnet.book html`` builds one from the chapters' last results); ``DPNET_CHROMIUM``
names the browser binary when it is not on the ``PATH``.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from chromium import LOAD_TIMEOUT, Chromium, Tab, read_events, require_chromium

from dpnet import publishing

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "_build" / "screenshots"
REPORT_PAGE = "chapters/reproducibility.html"
SEARCH_PAGE = "search.html"
SEARCH_WORD = "Laplace"
#: Repositories other than the book's own that its text links to on purpose (none today).
CITED_REPOSITORIES: tuple[str, ...] = ()

pytestmark = pytest.mark.book


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
  // the theme's repository, issues, edit and launch buttons; links to a code host or to Binder
  const buttons = ".dropdown-source-buttons a, .dropdown-launch-buttons a, a[class*='btn-source-']";
  const hosts = "github\\.com|gitlab\\.com|bitbucket\\.org|mybinder\\.org";
  const hosted = new RegExp(`dpnet-companion|^https?://([^/]*\\.)?(${hosts})(/|$)`, "i");
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
      .map(el => clip([el.getAttribute("data-mjx-error"),
                       el.closest("mjx-container")?.querySelector("mjx-assistive-mml")?.textContent
                       || el.textContent].filter(Boolean).join(": "))),
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
    repositoryButtons: [...document.querySelectorAll(buttons)].map(a => a.href || "(no address)"),
    hostedLinks: [...document.querySelectorAll("a[href]")].map(a => a.href).filter(href => hosted.test(href)),
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
    traffic = read_events(events, session, base)
    page.console_errors += traffic.console_errors
    page.failed_requests += traffic.failed_requests
    page.outside_requests += traffic.outside_requests


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
    repository: str | None  # the one the book was built with (dpnet.publishing), if any


@pytest.fixture(scope="module")
def visit(request: pytest.FixtureRequest) -> Visit:
    """Every page of the book opened in headless Chromium (one tab), with a screenshot of each."""
    binary = require_chromium("the book")
    if os.environ.get("DPNET_BOOK_HTML"):
        html = Path(os.environ["DPNET_BOOK_HTML"]).resolve()
        assert (html / "index.html").exists(), f"DPNET_BOOK_HTML={html} holds no built book"
        config = ROOT / "_config.yml"
    else:
        book = request.getfixturevalue("quick_book")
        html, config = book.html, book.root / "_config.yml"
    repository = publishing.repository(config)  # what the build read: this environment, its _config.yml
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
    return Visit(html, base, pages, redirects, time.perf_counter() - start, repository)


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
    (a download link), both served by the site; and, when the book names its repository, a launch
    button opening the notebook in Binder (none when it does not)."""
    chapter_pages = [p for p in visit.pages if re.fullmatch(r"chapters/\d\d_\w+\.html", p)]
    assert len(chapter_pages) == len(list((ROOT / "chapters").glob("[0-9][0-9]_*.md"))), chapter_pages
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
        if visit.repository is None:
            problems += [f"{path}: a Binder launch ({link}), but no repository" for link in found["launches"]]
        elif not any(link.endswith(f"chapters/{stem}.ipynb") for link in found["launches"]):
            problems.append(f"{path}: no Binder launch of chapters/{stem}.ipynb")
    assert not problems, "\n".join(problems)


def _links_to_the_repository(link: str, repository: str | None) -> bool:
    """Whether ``link`` leads to ``repository`` (its pages, or Binder built from it)."""
    if repository is None:
        return False
    if link == repository or link.startswith((f"{repository}/", f"{repository}?", f"{repository}#")):
        return True
    owner_and_name = urlsplit(repository).path.strip("/")  # Binder: /v2/gh/<owner>/<name>/<branch>…
    return link.startswith(f"{publishing.BINDERHUB}/") and f"/{owner_and_name}/" in unquote(link)


def test_no_page_links_to_a_repository_not_configured(visit: Visit) -> None:
    """The repository, issues and Binder buttons, and every link to a code host or to Binder, lead to
    the repository the book is configured with (``DPNET_REPOSITORY`` or ``_config.yml``; README), or to
    one its text cites on purpose. With none configured, no page has these buttons and none links to a
    repository, the made-up ``dpnet-companion`` one included."""

    def describe(page: Page) -> list[str]:
        found, problems = page.found, []
        for link in found["repositoryButtons"]:
            if not _links_to_the_repository(link, visit.repository):
                problems.append(f"a repository or launch button leads to {link}")
        for link in found["hostedLinks"]:
            if not (_links_to_the_repository(link, visit.repository) or link.startswith(CITED_REPOSITORIES)):
                problems.append(f"links to {link}, not the configured repository ({visit.repository})")
        return problems

    problems = _problems(visit, describe)
    assert not problems, "\n".join(problems)
    if visit.repository is not None:  # the buttons are there, on every page
        issues = f"{visit.repository}/issues"
        missing = [
            path
            for path, page in visit.pages.items()
            if not any(link.startswith(issues) for link in page.found["repositoryButtons"])
        ]
        assert not missing, f"pages without the issues button of {visit.repository}: {missing}"


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
