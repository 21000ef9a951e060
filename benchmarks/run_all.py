"""Run every benchmark (``make bench``), each in its own process, then print a summary table.

Each benchmark prints its own figures (times, and the targets they are read against); nothing here
asserts a time. The summary lists each benchmark's wall time and whether it ran to the end.

Run: ``python benchmarks/run_all.py [name ...]`` (names as ``power``, ``recommender``; default: all).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(names: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if names:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in names]
        unknown = set(names) - {s.stem.removeprefix("bench_") for s in scripts}
        if unknown:
            known = ", ".join(s.stem.removeprefix("bench_") for s in sorted(HERE.glob("bench_*.py")))
            wrong = ", ".join(sorted(unknown))
            print(f"error: unknown benchmark(s) {wrong}; known: {known}", file=sys.stderr)
            return 2
    rows = []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)])
        rows.append((script.stem.removeprefix("bench_"), time.perf_counter() - start, code))
    print("\n| benchmark | wall time (s) | status |\n| --- | ---: | --- |")
    for name, seconds, code in rows:
        print(f"| {name} | {seconds:,.1f} | {'ran' if code == 0 else f'FAILED (exit {code})'} |")
    return 0 if all(code == 0 for *_, code in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
