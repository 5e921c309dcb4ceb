"""What makes and checks the runtime's data, never installed with it: the card reader's synthetic tables,
real-photo labels and training (``tools.cards``), the dice reader's random rolls, training and printable
stickers (``tools.dice``), the demo's recordings (``tools.demo``), and text printed in the fonts the reader
ships (``tools.text``). Run from the source tree, e.g. ``python -m tools.cards.train``."""
