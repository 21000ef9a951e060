"""Headless Chromium driven through its DevTools protocol, for the tests that open pages in a real browser
(``tests/test_browser.py``: the built book; ``tests/test_lab.py``: a chapter in JupyterLab).

Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it on CI) is driven over one websocket
(tornado's client). Nothing is downloaded at run time, and no request leaves the machine: Chromium
resolves no host name but ``localhost``, so a page that needs the internet fails here as it would for a
reader offline. ``DPNET_CHROMIUM`` names the browser binary when it is not on the ``PATH``; without one,
:func:`require_chromium` skips the test, saying so.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WINDOW = (1280, 900)
LOAD_TIMEOUT = 60.0  # seconds for a page, its images and its formulas (2 shared cores)


def chromium_binary() -> str | None:
    """``DPNET_CHROMIUM``, else the first Chromium or Chrome on the ``PATH``."""
    if os.environ.get("DPNET_CHROMIUM"):
        return os.environ["DPNET_CHROMIUM"]
    return next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)


def require_chromium(what: str) -> str:
    """The Chromium binary (:func:`chromium_binary`), or skip the test of ``what`` ("the book"), saying
    why there is none."""
    binary = chromium_binary()
    if binary is None:
        pytest.skip(
            f"no Chromium to test {what} in: none of " + ", ".join(CHROMIUM_NAMES) + " is on the PATH "
            "and DPNET_CHROMIUM is not set (Debian: apt-get install chromium; .ci/run installs it on CI)"
        )
    return binary


# --- Chromium through the DevTools protocol ------------------------------------------------------


class DevToolsError(RuntimeError):
    pass


class Chromium:
    """A headless Chromium and one DevTools websocket to it (flat sessions, one per tab)."""

    FLAGS = (
        "--headless=new",
        "--remote-debugging-port=0",  # Chromium picks a free port and writes it to DevToolsActivePort
        "--no-sandbox",  # CI runs as root
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-gpu",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--hide-scrollbars",
        "--mute-audio",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",  # offline: nothing else resolves
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
    )

    def __init__(self, binary: str, profile: Path, timeout: float = 60.0) -> None:
        self.log = profile.parent / "chromium.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [binary, *self.FLAGS, f"--user-data-dir={profile}", "about:blank"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.events: list[dict[str, Any]] = []
        self._id = 0
        self.loop = asyncio.new_event_loop()
        try:
            port, path = self._active_port(profile / "DevToolsActivePort", timeout)
            self.ws = self.loop.run_until_complete(self._connect(f"ws://127.0.0.1:{port}{path}"))
        except BaseException:
            self.close()
            raise

    def _active_port(self, file: Path, timeout: float) -> tuple[str, str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise DevToolsError(f"Chromium exited ({self.process.returncode}): {self._log_tail()}")
            lines = file.read_text().split() if file.exists() else []
            if len(lines) == 2:
                return lines[0], lines[1]
            time.sleep(0.1)
        raise DevToolsError(f"Chromium wrote no DevToolsActivePort in {timeout:.0f} s: {self._log_tail()}")

    def _log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""

    @staticmethod
    async def _connect(url: str) -> Any:
        from tornado.websocket import websocket_connect

        return await websocket_connect(url, max_message_size=256 * 2**20)  # screenshots are large

    async def _send(self, text: str) -> None:
        await self.ws.write_message(text)

    async def _read(self, timeout: float) -> str | None:
        return await asyncio.wait_for(self.ws.read_message(), timeout)

    def _receive(self, deadline: float, what: str) -> dict[str, Any]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no answer from Chromium: {what}")
        try:
            raw = self.loop.run_until_complete(self._read(remaining))
        except asyncio.TimeoutError:
            raise TimeoutError(f"no answer from Chromium: {what}") from None
        if raw is None:
            raise DevToolsError(f"Chromium closed the DevTools connection: {self._log_tail()}")
        message = json.loads(raw)
        if "method" in message:
            self.events.append(message)
        return message

    def call(self, method: str, session: str | None = None, timeout: float = 60.0, **params: Any) -> Any:
        """Send a command and wait for its result; events that arrive meanwhile are kept."""
        self._id += 1
        command: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session:
            command["sessionId"] = session
        self.loop.run_until_complete(self._send(json.dumps(command)))
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline, method)
            if message.get("id") == self._id:
                if "error" in message:
                    raise DevToolsError(f"{method}: {message['error']}")
                return message["result"]

    def wait_for(self, event: str, session: str, since: int, timeout: float) -> dict[str, Any]:
        """The first ``event`` of ``session`` among the events from index ``since`` on."""
        deadline = time.monotonic() + timeout
        index = since
        while True:
            for message in self.events[index:]:
                if message["method"] == event and message.get("sessionId") == session:
                    return message["params"]
            index = len(self.events)
            self._receive(deadline, event)

    def close(self) -> None:
        """Close the browser, then end whatever is left of the process group it was started in."""
        if getattr(self, "ws", None) is not None:
            with contextlib.suppress(Exception):
                self.call("Browser.close", timeout=10)
            self.ws.close()
        self.loop.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)  # the renderers, if any outlived the browser


class Tab:
    """One page of the browser, with the Page, Runtime, Log and Network events enabled."""

    def __init__(self, browser: Chromium) -> None:
        self.browser = browser
        target = browser.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=WINDOW[0], height=WINDOW[1],
                  deviceScaleFactor=1, mobile=False)  # fmt: skip

    def call(self, method: str, timeout: float = 60.0, **params: Any) -> Any:
        return self.browser.call(method, self.session, timeout, **params)

    def open(self, url: str) -> None:
        """Load ``url`` (until its load event); the browser's events are cleared first."""
        self.browser.events.clear()
        navigation = self.call("Page.navigate", url=url)
        if navigation.get("errorText"):
            raise DevToolsError(f"{url}: {navigation['errorText']}")
        self.browser.wait_for("Page.loadEventFired", self.session, 0, LOAD_TIMEOUT)

    def evaluate(self, expression: str, timeout: float = LOAD_TIMEOUT) -> Any:
        reply = self.call("Runtime.evaluate", timeout, expression=expression, awaitPromise=True,
                          returnByValue=True)  # fmt: skip
        if "exceptionDetails" in reply:
            raise DevToolsError(f"script failed: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def screenshot(self, path: Path) -> None:
        self.evaluate("window.scrollTo(0, 0)")
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))


# --- what a tab did ------------------------------------------------------------------------------


@dataclass
class Traffic:
    """What the events of one tab report: errors in its console, and the requests it made."""

    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    outside_requests: list[str] = field(default_factory=list)  # anywhere but ``base``


def read_events(events: list[dict[str, Any]], session: str, base: str) -> Traffic:
    """The console errors and the failed and outside requests among the events of tab ``session``."""
    traffic = Traffic()
    requests: dict[str, str] = {}
    for event in events:
        if event.get("sessionId") != session:
            continue
        method, params = event["method"], event["params"]
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text", "")
            traffic.console_errors.append(f"uncaught {text.splitlines()[0] if text else details}")
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            traffic.console_errors.append(f"console.{params['type']}: {args}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            if not entry.get("url", "").endswith("/favicon.ico"):  # the browser's own guess; none is made
                traffic.console_errors.append(f"{entry['text']} ({entry.get('url', '')})")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            requests[params["requestId"]] = url
            if urlsplit(url).scheme in ("http", "https", "ws", "wss") and not url.startswith(base):
                traffic.outside_requests.append(url)
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            url = requests.get(params["requestId"], params["requestId"])
            if not url.endswith("/favicon.ico"):
                traffic.failed_requests.append(f"{url}: {params.get('errorText')}")
    return traffic
