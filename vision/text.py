"""The fonts that ship with the package (``vision/fonts``), as Pillow draws them: the same letters on every
machine, whatever fonts it has installed. The dice stickers are drawn in ``SANS_BOLD``.

>>> SANS_BOLD.exists(), font(SANS_BOLD, 20) is font(SANS_BOLD, 20)  # each size loaded once
(True, True)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

FONTS = Path(__file__).with_name("fonts")
SANS = FONTS / "DejaVuSans.ttf"
SANS_BOLD = FONTS / "DejaVuSans-Bold.ttf"


@cache
def font(path: Path, size: int) -> Any:
    """Pillow's font of the file ``path`` at ``size`` pixels to the em."""
    from PIL import ImageFont

    return ImageFont.truetype(str(path), size)
