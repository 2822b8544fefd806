"""Headless Chromium (Debian's `chromium` package) for the tests that look at a page, and
Selenium driving it through Debian's `chromium-driver` (no browser or driver is downloaded:
Selenium is given both binaries, so Selenium Manager never runs)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_binary() -> str:
    """The chromium binary; installed from Debian's packages when missing and we are root."""
    found = shutil.which("chromium")
    if found:
        return found
    if os.geteuid() != 0:
        raise RuntimeError("the browser tests need Debian's chromium: apt-get install chromium")
    apt_install("chromium")
    found = shutil.which("chromium")
    if not found:
        raise RuntimeError("chromium did not install")
    return found


def apt_install(package: str) -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=900)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", package],
        check=True,
        env=env,
        timeout=1800,
        stdout=subprocess.DEVNULL,
    )


def chromedriver_binary() -> str:
    """Debian's chromedriver (package chromium-driver), installed when missing and we are root."""
    found = shutil.which("chromedriver")
    if found:
        return found
    if os.geteuid() != 0:
        raise RuntimeError(
            "the browser tests need Debian's chromium-driver: apt-get install chromium-driver"
        )
    apt_install("chromium-driver")
    found = shutil.which("chromedriver")
    if not found:
        raise RuntimeError("chromium-driver did not install")
    return found


def run_chromium(binary: str, url: str, *extra: str) -> str:
    with tempfile.TemporaryDirectory(prefix="chronicle-chromium-") as profile:
        result = subprocess.run(
            [binary, *FLAGS, f"--user-data-dir={profile}", *extra, url],
            capture_output=True,
            text=True,
            timeout=120,
        )
    if result.returncode != 0:
        raise RuntimeError(f"chromium failed: {result.stderr[-2000:]}")
    return result.stdout


def dump_dom(binary: str, url: str) -> str:
    return run_chromium(binary, url, "--dump-dom")


def screenshot(binary: str, url: str, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    run_chromium(binary, url, "--window-size=1600,1000", f"--screenshot={path}")
    return path


def selenium_driver(width: int = 1500, height: int = 1000, network_log: bool = False) -> Any:
    """A Selenium WebDriver on headless Debian Chromium through Debian's chromedriver;
    `network_log`: keep the DevTools network log that `sent_requests` reads (chromedriver then
    relays every network and page event of every window, which a whole game's test pays for at
    each move, so only the modules that read it ask for it)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium_binary()
    for flag in FLAGS:
        options.add_argument(flag.replace("--headless", "--headless=new"))
    options.add_argument(f"--window-size={width},{height}")
    options.add_argument("--disable-features=Translate,MediaRouter")
    options.add_argument("--disable-renderer-backgrounding")
    options.add_argument("--disable-background-timer-throttling")
    options.add_argument("--disable-backgrounding-occluded-windows")
    logs = {"browser": "ALL", **({"performance": "ALL"} if network_log else {})}
    options.set_capability("goog:loggingPrefs", logs)
    service = Service(executable_path=chromedriver_binary(), log_output=subprocess.DEVNULL)
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    return driver


def jpeg_screenshot(driver: Any, path: Path, quality: int = 60) -> Path:
    """The window as a JPEG (DevTools `Page.captureScreenshot`: smaller and quicker than PNG)."""
    import base64

    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "jpeg", "quality": quality})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


def sent_requests(driver: Any) -> list[dict[str, Any]]:
    """Every request the browser sent since the last call (DevTools network log, kept by a
    session opened with `network_log=True`): its URL and headers. Reading the log empties it."""
    import json

    found = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            request = message["params"]["request"]
            found.append({"url": request["url"], "headers": request.get("headers", {})})
    return found


def network_traffic(driver: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The requests the browser sent since the last read of the DevTools network log (`url`,
    `method`, `at`: seconds, the browser's monotonic clock) and the responses it had (`url`,
    `status`). Reading the log empties it."""
    import json

    sent, answered = [], []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message.get("method") == "Network.requestWillBeSent":
            request = params["request"]
            sent.append(
                {"url": request["url"], "method": request["method"], "at": params["timestamp"]}
            )
        elif message.get("method") == "Network.responseReceived":
            response = params["response"]
            answered.append({"url": response["url"], "status": response["status"]})
    return sent, answered


def most_in_a_minute(times: list[float]) -> int:
    """The most of `times` (seconds) that fall within any 60 seconds."""
    times = sorted(times)
    most, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= 60:
            start += 1
        most = max(most, end - start + 1)
    return most


@contextmanager
def browser_session(
    width: int = 1500, height: int = 1000, network_log: bool = False
) -> Iterator[Any]:
    """A headless Chromium driven by Selenium for one test module, quit afterwards. Without
    Debian's chromium and chromium-driver (and no root to install them) the module fails: the
    web table is a feature, and a skipped test would stand in for it."""
    import pytest

    try:
        chromium_binary()
        chromedriver_binary()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        pytest.fail(f"the browser tests need Debian's chromium and chromium-driver ({exc})")
    driver = selenium_driver(width, height, network_log)
    try:
        yield driver
    finally:
        driver.quit()
