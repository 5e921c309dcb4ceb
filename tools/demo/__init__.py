"""The demo's recordings made again (``python -m tools.demo.make``): the games played by the engines
(``deals``) at a drawn table through the device's whole pipeline (``make``)."""
