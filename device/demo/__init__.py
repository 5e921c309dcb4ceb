"""The kiosk demo (``tablescore demo``): recorded table sessions of the five games played through the
device's whole pipeline.

``command`` is the command; ``recording`` the recordings and their playback as camera, buttons and seat
panel; ``stage`` draws the frames, and ``dice_drawing`` the Pinzique dice in them. The recordings are made
by ``python -m tools.demo.make``.
"""
