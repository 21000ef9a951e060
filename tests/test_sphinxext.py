"""The book's Sphinx extension (dpnet.sphinxext) on a one-page Sphinx project: MathJax is served with
the book, and each page lists each script once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from dpnet import sphinxext

PAGE = """Math
====

Inline :math:`\\varepsilon` and a display:

.. math::

   \\Pr[M(x) \\in S] \\le e^{\\varepsilon} \\Pr[M(x') \\in S]
"""


CONF = """extensions = ['dpnet.sphinxext']


def setup(app):  # an inline script added once the build has begun, as sphinx-thebe does
    app.connect("env-before-read-docs", lambda app, env, docnames: app.add_js_file(None, body="var once"))
"""


def build(tmp_path: Path, **config: object) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF)
    (src / "index.rst").write_text(PAGE)
    app = SphinxTestApp("html", src, tmp_path / "build", confoverrides=config, warningiserror=True)
    try:  # SphinxTestApp, unlike Sphinx, resets docutils' global registries afterwards
        app.build()
    finally:
        app.cleanup()
    return Path(app.outdir)


def test_the_pinned_package_holds_every_file_copied() -> None:
    source = sphinxext.mathjax_source()
    assert all((source / name).exists() for name in sphinxext.MATHJAX_FILES)
    assert '"version": "3.2.2"' in (source.parent / "package.json").read_text()


def test_pages_load_mathjax_from_the_books_static_folder(tmp_path: Path) -> None:
    out = build(tmp_path)
    page = (out / "index.html").read_text()
    (src,) = re.findall(r'<script[^>]+src="([^"]*tex-mml-chtml[^"]*)"', page)
    assert re.fullmatch(r"_static/mathjax/tex-mml-chtml\.js\?v=[0-9a-f]{8}", src), src
    static = out / "_static" / "mathjax"
    for name in ("tex-mml-chtml.js", "input/tex/extensions/boldsymbol.js", "LICENSE"):
        assert (static / name).is_file(), name
    assert list((static / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
    assert not (static / "tex-svg.js").exists()  # only what the page can load
    assert "cdn.jsdelivr.net" not in page


def test_a_mathjax_path_set_by_the_book_is_kept(tmp_path: Path) -> None:
    out = build(tmp_path, mathjax_path="https://example.org/mathjax/tex-chtml.js")
    assert 'src="https://example.org/mathjax/tex-chtml.js"' in (out / "index.html").read_text()
    assert not (out / "_static" / "mathjax").exists()


@pytest.mark.parametrize("missing", ["distribution", "file"])
def test_a_missing_mathjax_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, missing: str) -> None:
    from sphinx.errors import ExtensionError

    if missing == "distribution":
        monkeypatch.setattr(sphinxext, "MATHJAX_DISTRIBUTION", "no-such-mathjax-package")
    else:
        monkeypatch.setattr(sphinxext, "MATHJAX_ES5", "mathjax/static/nowhere")
    with pytest.raises(ExtensionError, match=r"no-such-mathjax-package is not installed|has no"):
        sphinxext.mathjax_source()


def test_each_script_is_listed_once(tmp_path: Path) -> None:
    page = (build(tmp_path) / "index.html").read_text()
    assert page.count("<script>var once</script>") == 1


def test_a_contradicted_sentence_in_the_book_s_voice_says_so_in_words() -> None:
    """``{holds}`` adds the words to a ✗ (the verdict of a ``{badge}`` stays a mark alone); a ✓ or an
    undefined – adds nothing."""
    (words,) = sphinxext.HoldsRole().remark("✗")
    assert words.astext() == " this run contradicts this sentence"
    assert "holds-contradicted" in words["classes"]
    assert sphinxext.HoldsRole().remark("✓") == [] and sphinxext.HoldsRole().remark("–") == []
    assert sphinxext.BadgeRole().remark("✗") == []
