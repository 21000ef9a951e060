"""The repository the book links to is configuration (dpnet.publishing): the environment, else
``_config.yml``; with none, the book's buttons are off and it names no repository."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dpnet import book, publishing
from dpnet.errors import ChapterError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
OWN = "https://github.com/someone/dpnet-book"


def config(tmp_path: Path, url: str | None) -> Path:
    """The book's ``_config.yml`` with ``repository: url:`` set to ``url`` (or no repository section)."""
    data = yaml.safe_load((ROOT / "_config.yml").read_text())
    if url is None:
        data.pop("repository")
    else:
        data["repository"]["url"] = url
    path = tmp_path / "_config.yml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_the_book_as_shipped_names_no_repository() -> None:
    assert publishing.repository(ROOT / "_config.yml", environ={}) is None
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "urls" not in pyproject["project"], "pyproject.toml names a repository"
    for path in ("_config.yml", "pyproject.toml", "README.md"):
        assert "dpnet-companion" not in (ROOT / path).read_text(), path


def test_without_a_repository_every_button_is_off(tmp_path: Path) -> None:
    for url in ("", None):
        theme = publishing.sphinx_overrides(config(tmp_path, url), environ={})["html_theme_options"]
        assert theme["repository_url"] == ""  # not even Jupyter Book's default repository
        assert not any(theme[f"use_{name}_button"] for name in ("repository", "issues", "edit_page"))
        assert not any(theme["launch_buttons"].values())


@pytest.mark.parametrize(
    ("environment", "in_config", "expected"),
    [
        ({"DPNET_REPOSITORY": OWN}, "", OWN),
        ({}, OWN, OWN),
        ({"DPNET_REPOSITORY": OWN}, "https://gitlab.com/other/book", OWN),  # the environment wins
        ({"DPNET_REPOSITORY": "  "}, OWN, OWN),  # empty: not set
        ({"DPNET_REPOSITORY": OWN + ".git/"}, "", OWN),
        ({}, "https://GitLab.com/group/book/", "https://gitlab.com/group/book"),
    ],
)
def test_a_configured_repository_gets_its_buttons_and_binder(
    tmp_path: Path, environment: dict[str, str], in_config: str, expected: str
) -> None:
    path = config(tmp_path, in_config)
    assert publishing.repository(path, environment) == expected
    theme = publishing.sphinx_overrides(path, environment)["html_theme_options"]
    assert theme["repository_url"] == expected
    assert theme["use_repository_button"] and theme["use_issues_button"]
    assert theme["launch_buttons"] == {"binderhub_url": publishing.BINDERHUB}


@pytest.mark.parametrize(
    ("environment", "in_config", "where"),
    [
        ({"DPNET_REPOSITORY": "github.com/someone/book"}, "", "DPNET_REPOSITORY"),
        ({"DPNET_REPOSITORY": "https://github.com/someone"}, "", "DPNET_REPOSITORY"),
        ({}, "https://example.org/someone/book", "repository: url:"),
        ({}, "https://github.com/someone/book/tree/main", "repository: url:"),
    ],
)
def test_a_url_that_is_not_a_repository_is_refused(
    tmp_path: Path, environment: dict[str, str], in_config: str, where: str
) -> None:
    with pytest.raises(ChapterError, match=f"{where}.* is not a repository's address"):
        publishing.repository(config(tmp_path, in_config), environment)


def test_the_overrides_reach_the_theme_through_jupyter_book(tmp_path: Path) -> None:
    """Jupyter Book merges the overrides into the theme options it reads from ``_config.yml``: the
    interface of the Binder button stays, the repository's branch and path too."""
    from jupyter_book.config import get_final_config

    path = config(tmp_path, "")
    for environment, url in (({}, ""), ({"DPNET_REPOSITORY": OWN}, OWN)):
        overrides = {"latex_individualpages": False, **publishing.sphinx_overrides(path, environment)}
        sphinx, _ = get_final_config(user_yaml=path, cli_config=overrides, sourcedir=tmp_path)
        theme = sphinx["html_theme_options"]
        assert theme["repository_url"] == url
        assert theme["repository_branch"] == "main"
        assert theme["launch_buttons"]["notebook_interface"] == "jupyterlab"
        assert theme["launch_buttons"]["binderhub_url"] == (publishing.BINDERHUB if url else "")
        assert theme.get("use_repository_button") is bool(url)


def test_the_html_build_takes_its_buttons_from_the_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m dpnet.book html`` hands Sphinx the overrides of the repository it is configured with
    (here a failing Sphinx stands in for the real one, which the browser test checks); an address that
    is not a repository's stops it before anything is staged, naming where it was set."""
    (tmp_path / "_build").mkdir()
    (tmp_path / "_config.yml").write_bytes((ROOT / "_config.yml").read_bytes())
    staged: list[Path] = []
    commands: list[list[str]] = []
    monkeypatch.setattr(book, "stage_book", staged.append)

    def sphinx(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        return subprocess.CompletedProcess(command, 1, "", "stand-in Sphinx")

    monkeypatch.setattr(subprocess, "run", sphinx)
    for environment in ({}, {"DPNET_REPOSITORY": OWN}):
        monkeypatch.delenv("DPNET_REPOSITORY", raising=False)
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        with pytest.raises(ChapterError, match="jupyter-book build failed"):
            book._render_html(tmp_path, jobs=1)
        theme = json.loads(commands[-1][-1])["html_theme_options"]
        expected = publishing.sphinx_overrides(tmp_path / "_config.yml", environment)
        assert theme == expected["html_theme_options"]
        assert theme["repository_url"] == environment.get("DPNET_REPOSITORY", "")
    assert len(staged) == len(commands) == 2

    monkeypatch.setenv("DPNET_REPOSITORY", "https://example.org/someone/book")
    with pytest.raises(ChapterError, match=r"DPNET_REPOSITORY = .* is not a repository's address"):
        book._render_html(tmp_path, jobs=1)
    assert len(staged) == len(commands) == 2, "staged or built with an address that is not a repository's"
