"""Print on BGR images in the fonts that ship with the reader (``vision.text``), the same on every machine:
OpenCV's own ``putText`` draws other letters in OpenCV 5 than in OpenCV 4. The sticker sheet's words, and
the small print of test pictures.

>>> import numpy as np
>>> page = np.full((30, 100, 3), 255, np.uint8)
>>> put_text(page, "Pinzique", (2, 22), 20)
>>> int(page.min()) < 100, int(page[:, 90:].min())  # inked, as far as the word reaches
(True, 255)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.text import SANS, font

INK = (40, 40, 40)


def put_text(canvas: NDArray[Any], text: str, origin: tuple[int, int], size: int,
             colour: tuple[int, int, int] = INK, face: Path = SANS) -> None:
    """Draw ``text`` on the BGR ``canvas`` in place, antialiased, in the font file ``face`` at ``size``
    pixels to the em, its baseline starting at ``origin`` (where ``cv2.putText`` starts it); what falls
    outside the canvas is left out."""
    from PIL import Image, ImageDraw

    shape = font(face, size)
    x, y = origin
    x0, y0, x1, y1 = shape.getbbox(text, anchor="ls")
    left, top = max(0, x + x0), max(0, y + y0)
    right, bottom = min(canvas.shape[1], x + x1), min(canvas.shape[0], y + y1)
    if left >= right or top >= bottom:
        return
    box = canvas[top:bottom, left:right]
    image = Image.fromarray(np.ascontiguousarray(box))
    ImageDraw.Draw(image).text((x - left, y - top), text, font=shape, fill=colour[::-1], anchor="ls")
    box[:] = np.asarray(image)
