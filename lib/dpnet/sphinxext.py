"""The book's Sphinx extension: the ``{badge}`` role.

``{badge}`p003-fig1/below-one``` shows the verdict a chapter glued when it recorded check
``below-one`` of item ``p003-fig1`` (:meth:`dpnet.results.Results.checks`): ✓ when the claim holds in
this run, ✗ when it fails, – when it is undefined for the run's parameters. It links to the check's
line in the reproducibility report (:func:`dpnet.results.check_label`).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from myst_nb.core.variables import RetrievalError
from myst_nb.ext.glue.utils import glue_warning, retrieve_glue_data
from myst_nb.ext.utils import RoleBase
from sphinx import addnodes

from dpnet.results import badge_key, check_label

__all__ = ["BadgeRole", "setup"]


class BadgeRole(RoleBase):
    """``{badge}`<item>/<check>```: the check's glued verdict, linked to its line in the report."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        item, _, name = (part.strip() for part in self.text.partition("/"))
        try:
            data = retrieve_glue_data(self.document, badge_key(item, name))
        except RetrievalError as exc:
            return [], [
                glue_warning(f"{exc} (no check {name!r} of {item} was recorded)", self.document, self.line)
            ]
        mark = str(data.data.get("text/plain", "?")).strip("'\"")
        ref = addnodes.pending_xref(
            self.rawtext, refdomain="std", reftype="ref", reftarget=check_label(item, name), refexplicit=True,
            refwarn=True, classes=["badge"],
        )  # fmt: skip
        ref += nodes.inline(
            mark, mark, classes=["badge", {"✓": "badge-pass", "✗": "badge-fail"}.get(mark, "badge-na")]
        )
        self.set_source_info(ref)
        return [ref], []


def setup(app: Any) -> dict[str, Any]:
    """Register the role with Sphinx."""
    app.add_role("badge", BadgeRole())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
