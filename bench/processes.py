"""Processes read from /proc: a process's descendants and its CPU time."""

from __future__ import annotations

import os
from pathlib import Path


def _parent_of(stat: str) -> int:
    return int(stat.rsplit(")", 1)[1].split()[1])


def descendants(pid: int) -> set[int]:
    """Every process whose parent chain leads to `pid`."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = _parent_of((entry / "stat").read_text())
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of one process (not of its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
