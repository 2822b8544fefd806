"""The present instant, for the domain's clocks (`domain.core.seating.Timepiece`)."""

from __future__ import annotations

import time


class SystemTimepiece:
    def now_ms(self) -> int:
        return int(time.time() * 1000)
