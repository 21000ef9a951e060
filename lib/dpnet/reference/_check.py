"""The shape of a recorded check."""

from __future__ import annotations

#: ``(claim, passed, detail)``, as :meth:`dpnet.results.Results.check` records it.
Check = tuple[str, bool, str]
