"""pytest's warning filters (pyproject.toml) silence luma's calls of Pillow's deprecated ``getdata`` and
nothing else: the same deprecation from our own code, and other warnings, are still reported."""

from __future__ import annotations

import warnings

from luma.core.interface.serial import noop
from luma.oled.device import ssd1306

from device.screens import Screen, render


def test_only_lumas_pillow_deprecation_is_silenced() -> None:
    image = render(Screen("Gin", big="Ann 25"))
    with warnings.catch_warnings(record=True) as caught:  # under the session's filters
        ssd1306(noop()).display(image)  # luma calls image.getdata()
        assert caught == []
        image.getdata()  # the same call here is still reported
        warnings.warn("still reported", DeprecationWarning, stacklevel=1)
    assert [str(warning.message).split(" is ")[0] for warning in caught] == ["Image.Image.getdata", "still reported"]
