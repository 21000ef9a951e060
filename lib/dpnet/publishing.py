"""Where the book is published from: the repository its buttons link to, as configuration.

The HTML book links to its source repository in three places: the repository button and the issues
button of every page, and the Binder button of every chapter, which opens ``chapters/<chapter>.ipynb``
(``binder/postBuild`` pairs each chapter's MyST source with that notebook). The repository's URL is
configuration, never a guess:

* the environment variable ``DPNET_REPOSITORY``, when it is set and not empty;
* else ``repository: url:`` in ``_config.yml``.

When neither names a repository, the book shows none of the three buttons and no page links to a
repository. :func:`sphinx_overrides` turns this into the Sphinx configuration of the HTML build.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from dpnet.errors import ChapterError

__all__ = ["BINDERHUB", "ENVIRONMENT", "HOSTS", "repository", "sphinx_overrides"]

#: The environment variable that names the repository (it wins over ``_config.yml``).
ENVIRONMENT = "DPNET_REPOSITORY"
#: The BinderHub the chapters' launch buttons open.
BINDERHUB = "https://mybinder.org"
#: The hosts the book's theme (sphinx-book-theme) builds repository, issues and Binder links for.
HOSTS = ("github.com", "gitlab.com", "bitbucket.org")

_URL = re.compile(r"https://(?P<host>[^/\s]+)/(?P<owner>[^/\s]+)/(?P<name>[^/\s]+?)(?:\.git)?/?")


def _config_url(config: Path) -> str:
    data = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
    section = data.get("repository") or {}
    if not isinstance(section, Mapping):
        raise ChapterError(f"{config}: 'repository' must be a mapping with a 'url'")
    return str(section.get("url") or "").strip()


def repository(config: Path, environ: Mapping[str, str] | None = None) -> str | None:
    """The URL of the repository the book is published from, or ``None`` when none is configured.

    Parameters
    ----------
    config
        The book's ``_config.yml``; its ``repository: url:`` is read when the environment names none.
    environ
        The environment to read ``DPNET_REPOSITORY`` from (default: the process's).

    Returns
    -------
    str or None
        ``https://<host>/<owner>/<name>``, without a trailing slash or ``.git``.

    Raises
    ------
    ChapterError
        When the configured URL is not ``https://<host>/<owner>/<name>`` on one of :data:`HOSTS`,
        naming where it was set.
    """
    environ = os.environ if environ is None else environ
    url, where = environ.get(ENVIRONMENT, "").strip(), ENVIRONMENT
    if not url:
        url, where = _config_url(config), f"repository: url: in {config}"
    if not url:
        return None
    match = _URL.fullmatch(url)
    if match is None or match["host"].lower() not in HOSTS:
        raise ChapterError(
            f"{where} = {url!r} is not a repository's address: give https://<host>/<owner>/<name> "
            f"on one of {', '.join(HOSTS)} (or leave it empty for a book without repository buttons)"
        )
    return f"https://{match['host'].lower()}/{match['owner']}/{match['name']}"


def sphinx_overrides(config: Path, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The Sphinx configuration (``confoverrides``) that shows or hides the buttons of the repository.

    With a repository configured (:func:`repository`): the repository and issues buttons link to it,
    and each chapter has a Binder button (:data:`BINDERHUB`). Without one: no repository, issues,
    edit or launch button, and no repository URL for the theme to link to (Jupyter Book's own default
    URL included). Jupyter Book merges these theme options into those it reads from ``_config.yml``.

    Parameters
    ----------
    config
        The book's ``_config.yml``.
    environ
        The environment to read ``DPNET_REPOSITORY`` from (default: the process's).
    """
    url = repository(config, environ)
    if url is None:
        launchers = ("binderhub_url", "jupyterhub_url", "colab_url", "deepnote_url")
        theme = {
            "repository_url": "",
            "use_repository_button": False,
            "use_issues_button": False,
            "use_edit_page_button": False,
            "launch_buttons": {**dict.fromkeys(launchers, ""), "thebe": False},
        }
    else:
        theme = {
            "repository_url": url,
            "use_repository_button": True,
            "use_issues_button": True,
            "launch_buttons": {"binderhub_url": BINDERHUB},
        }
    return {"html_theme_options": theme}
