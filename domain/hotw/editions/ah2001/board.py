"""The Avalon Hill 2001 board: 102 lands in 13 areas and 8 barren lands, the seas and oceans,
straits and the Great Wall (ah2001.setup.board). The board type is the family's world board
(`domain.hotw.world`), shared with A Brief History of the World; loaded from
`data/hotw-ah2001/board.yaml` by `packs.ah2001`."""

from __future__ import annotations

from domain.hotw.world import LandCell, Water
from domain.hotw.world import WorldBoard as Ah2001Board

__all__ = ["Ah2001Board", "LandCell", "Water"]
