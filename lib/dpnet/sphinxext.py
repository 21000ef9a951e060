"""The book's Sphinx extension: the ``{badge}`` and ``{holds}`` roles, and MathJax served with the book.

``{badge}`p003-fig1/below-one``` shows the verdict a chapter glued when it recorded check
``below-one`` of item ``p003-fig1`` (:meth:`dpnet.results.Results.checks`): ✓ when the claim holds in
this run, ✗ when it fails, – when it is undefined for the run's parameters. It links to the check's
line in the reproducibility report (:func:`dpnet.results.check_label`). It sits on a sentence that
reports a paper's claim. A check the run did not compute (a reader's parameters can leave one out) shows
an unlinked –; at the default parameters the runner refuses a mark that names no recorded check.

``{holds}`p003-fig1/below-one``` is the same mark on a sentence in the book's own voice
(:mod:`dpnet.voices`). When the run contradicts the sentence (✗), the mark says so in words: "✗ this
run contradicts this sentence". (A full-mode run at the default parameters never gets there: the
runner refuses it.)

MathJax comes with the book, so formulas are typeset offline: instead of Sphinx's default (MathJax 3
from a CDN), the pages load ``_static/mathjax/tex-mml-chtml.js``, copied at build time from the pinned
PyPI package ``django-static-mathjax`` (MathJax 3.2.2, the release the CDN address serves; the same
CHTML output and TeX extensions). Only the files that component loads, or that its context menu
may load, are copied (:data:`MATHJAX_FILES`, about 8.3 MB). A ``mathjax_path`` set in ``_config.yml``
is left alone.

Each page lists each script once: Sphinx 7.4 writes an inline script that an extension adds after the
builder has started (sphinx-thebe's ``const THEBE_JS_URL = …``) twice, and the browser rejects the
second copy with a SyntaxError (a JavaScript error on every page, tests/test_browser.py).
"""

from __future__ import annotations

import shutil
from importlib import metadata
from pathlib import Path
from typing import Any

from docutils import nodes
from myst_nb.core.variables import RetrievalError
from myst_nb.ext.glue.utils import retrieve_glue_data
from myst_nb.ext.utils import RoleBase
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.ext import mathjax

from dpnet.results import BADGES, badge_key, check_label

__all__ = [
    "CONTRADICTED",
    "MATHJAX_FILES",
    "MATHJAX_PATH",
    "NOT_COMPUTED",
    "BadgeRole",
    "HoldsRole",
    "mathjax_source",
    "setup",
]

MATHJAX_DISTRIBUTION = "django-static-mathjax"
#: MathJax's browser build inside that distribution
MATHJAX_ES5 = "mathjax/static/mathjax/es5"
#: the page loads this, relative to ``_static`` (Sphinx's ``mathjax_path``)
MATHJAX_PATH = "mathjax/tex-mml-chtml.js"
#: TeX and MathML input with CHTML output (Sphinx's default component), the TeX extensions it loads on
#: demand (``\boldsymbol``, ...), the fonts, and what the context menu may load (SVG output,
#: accessibility and speech); the other combined components and the Node.js adaptors are left out
MATHJAX_FILES = ("tex-mml-chtml.js", "input/tex", "output", "ui", "a11y", "sre", "../LICENSE")


#: What a ``{holds}`` mark adds when the run contradicts its sentence.
CONTRADICTED = "this run contradicts this sentence"
#: The title of a mark whose check this run did not compute.
NOT_COMPUTED = "not computed for this run's parameters"


class BadgeRole(RoleBase):
    """``{badge}`<item>/<check>```: the check's glued verdict, linked to its line in the report."""

    #: The class of the marks this role makes.
    kind = "badge"

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        item, _, name = (part.strip() for part in self.text.partition("/"))
        try:
            data = retrieve_glue_data(self.document, badge_key(item, name))
        except RetrievalError:
            # the run did not compute this check (parameters other than the defaults leave some out; at
            # the defaults the runner refuses a mark that names no recorded check): a dash, unlinked
            dash = nodes.inline(
                BADGES[None], BADGES[None], classes=[self.kind, "badge-na", "badge-not-computed"]
            )
            dash["title"] = NOT_COMPUTED
            self.set_source_info(dash)
            return [dash], []
        mark = str(data.data.get("text/plain", "?")).strip("'\"")
        ref = addnodes.pending_xref(
            self.rawtext, refdomain="std", reftype="ref", reftarget=check_label(item, name), refexplicit=True,
            refwarn=True, classes=["badge"],
        )  # fmt: skip
        ref += nodes.inline(
            mark, mark, classes=[self.kind, {"✓": "badge-pass", "✗": "badge-fail"}.get(mark, "badge-na")]
        )
        self.set_source_info(ref)
        return [ref, *self.remark(mark)], []

    def remark(self, mark: str) -> list[nodes.Node]:
        """What the mark adds after itself: nothing, for a verdict on a paper's claim."""
        return []


class HoldsRole(BadgeRole):
    """``{holds}`<item>/<check>```: a sentence in the book's own voice, bound to a check; when the run
    contradicts it, the mark says so in words."""

    kind = "holds"

    def remark(self, mark: str) -> list[nodes.Node]:
        if mark != "✗":
            return []
        text = f" {CONTRADICTED}"
        return [nodes.emphasis(text, text, classes=["holds-contradicted"])]


def mathjax_source() -> Path:
    """The installed MathJax browser build (``es5``) of the pinned package."""
    try:
        dist = metadata.distribution(MATHJAX_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise ExtensionError(
            f"{MATHJAX_DISTRIBUTION} is not installed: the book serves MathJax from it "
            "(pip install -e . installs the pinned version)"
        ) from None
    source = Path(str(dist.locate_file(MATHJAX_ES5)))
    if not (source / "tex-mml-chtml.js").is_file():
        raise ExtensionError(f"{MATHJAX_DISTRIBUTION} {dist.version} has no {MATHJAX_ES5}/tex-mml-chtml.js")
    return source


def _use_local_mathjax(app: Any, config: Any) -> None:
    if config.mathjax_path == mathjax.MATHJAX_URL:  # Sphinx's default, the CDN
        config.mathjax_path = MATHJAX_PATH


def _copy_mathjax(app: Any) -> None:
    if app.builder.format != "html" or app.config.mathjax_path != MATHJAX_PATH:
        return
    source = mathjax_source()
    target = Path(app.outdir) / "_static" / Path(MATHJAX_PATH).parent
    target.mkdir(parents=True, exist_ok=True)
    for name in MATHJAX_FILES:  # before the pages are written, so Sphinx adds the file's checksum
        path = source / name
        if path.is_dir():
            shutil.copytree(path, target / name, dirs_exist_ok=True)
        else:
            shutil.copy2(path, target / path.name)


def _list_scripts_once(
    app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    # the builder keeps such a script as _JavaScript(None, body=…) and, again, as _JavaScript("", body=…)
    scripts, seen = [], set()
    for script in context.get("script_files", ()):
        attributes = getattr(script, "attributes", {})
        key = (
            getattr(script, "filename", script) or "",
            getattr(script, "priority", 0),
            *sorted(attributes.items()),
        )
        if key not in seen:
            seen.add(key)
            scripts.append(script)
    if "script_files" in context:
        context["script_files"] = scripts


def _read_multitoc_in_parallel(app: Any) -> None:
    """Let Sphinx read the book's pages in parallel although ``sphinx_multitoc_numbering`` is loaded.

    sphinx-external-toc loads that extension unconditionally, and it does not declare whether it is
    safe for parallel reading, so Sphinx would read every page in one process (and warn, which the
    build's ``-W`` turns into an error). It is safe: its ``setup`` only replaces a method of Sphinx's
    toctree collector, which forked readers inherit, and it keeps nothing in the environment. The
    declaration is made only where the extension makes none.
    """
    extension = app.extensions.get("sphinx_multitoc_numbering")
    if extension is not None and extension.parallel_read_safe is None:
        extension.parallel_read_safe = True


def setup(app: Any) -> dict[str, Any]:
    """Register the roles, serve MathJax from the book's ``_static`` folder, list each script once, and
    let the pages be read in parallel."""
    app.add_role("badge", BadgeRole())
    app.add_role("holds", HoldsRole())
    app.setup_extension("sphinx.ext.mathjax")
    app.connect("config-inited", _use_local_mathjax)
    app.connect("builder-inited", _copy_mathjax)
    app.connect("builder-inited", _read_multitoc_in_parallel)
    app.connect("html-page-context", _list_scripts_once, priority=900)  # after the handlers adding scripts
    return {"parallel_read_safe": True, "parallel_write_safe": True}
