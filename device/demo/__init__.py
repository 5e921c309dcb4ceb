"""The kiosk demo (``tablescore demo``): recorded table sessions of the five games played through the
device's whole pipeline.

``command`` is the command; ``recording`` the recordings and their playback as camera, buttons and seat
panel; ``stage`` draws the frames; ``deals`` plays the games with the engines; ``make`` (run as
``python -m device.demo.make``) records them at a rendered table through the real pipeline.
"""
