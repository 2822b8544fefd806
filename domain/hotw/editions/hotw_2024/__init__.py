"""History of the World, Rio Grande Games 2024: the registered ruleset `hotw-2024`.

Every rule of the 2024 rulebook, with its four optional rules (p11-p12) as boolean options, off
by default, in any combination except Option 3 without dice.
"""

from __future__ import annotations

from domain.hotw.editions.hotw_2024.engine import Hotw2024, Option
from domain.hotw.editions.hotw_2024.revisions import REVISIONS

__all__ = ["REVISIONS", "Hotw2024", "Option"]
