"""The dice reader's data and training: random trays and rolls (``rolls``), the cocked-die judge's fitting
(``train``: ``python -m tools.dice.train``) and the printable sticker sheet (``stickers``:
``python -m tools.dice.stickers OUT.png``)."""
