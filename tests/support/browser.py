"""Headless Chromium (Debian's `chromium` package) for the tests that look at a page."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

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
        raise RuntimeError("the replay tests need Debian's chromium: apt-get install chromium")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=900)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "chromium"],
        check=True,
        env=env,
        timeout=1800,
        stdout=subprocess.DEVNULL,
    )
    found = shutil.which("chromium")
    if not found:
        raise RuntimeError("chromium did not install")
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
