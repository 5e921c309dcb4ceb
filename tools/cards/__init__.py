"""The card reader's data and training: synthetic card tables (``render``), the labelled real photos
(``photos``) and the fitting of the index reader (``train``: ``python -m tools.cards.train``)."""
