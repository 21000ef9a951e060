"""Speed of Chapter 9 (privacy-audit), printed, not asserted.

The book's targets: quick mode under 60 s and full mode under 3 minutes on this 2-core machine. This
times every item of the chapter at both modes' parameters, in this process (the kernel start, the
imports and the notebook's figures come on top in a chapter run), and prints beside each the item's
``cost()`` term, the seconds the chapter's footprint estimates for it.

Run: ``python benchmarks/bench_privacy_audit.py`` (set ``DPNET_DATA_MIRROR`` to the data mirror).
"""

from __future__ import annotations

import importlib
import os
import time

os.environ.setdefault("DPNET_PROGRESS", "0")

from dpnet import chapters
from dpnet.chapters import privacy_audit as chapter


def _cost(module: str):  # the item module (its name is shadowed by the experiment it re-exports)
    return importlib.import_module(f"dpnet.chapters.privacy_audit.{module}").cost


ITEMS = (
    (chapter.sec2_audit, _cost("p003_sec2_audit")),
    (chapter.sec12_audit, _cost("p003_sec12_audit")),
    (chapter.p001_audit, _cost("p001_audit")),
    (chapter.p002_audit, _cost("p002_audit")),
    (chapter.p004_audit, _cost("p004_audit")),
)


def main() -> None:
    for mode in ("quick", "full"):
        P = chapters.resolve("privacy-audit", {"mode": mode})
        start, parts, items = time.perf_counter(), [], []
        for item, cost in ITEMS:
            t = time.perf_counter()
            items.append(item(P))
            parts.append(f"{item.__name__} {time.perf_counter() - t:.1f} s (cost {cost(P).seconds:.1f} s)")
        chapter.summary(*items).figure()
        total = time.perf_counter() - start
        print(f"{mode}: {total:.1f} s; footprint {chapter.SCHEMA.footprint(dict(P)).seconds:.0f} s")
        print("  " + "\n  ".join(parts))


if __name__ == "__main__":
    main()
