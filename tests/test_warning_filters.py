"""pytest's warning filters (pyproject.toml) silence luma's calls of Pillow's deprecated ``getdata`` and
nothing else: the same deprecation from our own code, and other warnings, are still reported. Older Pillows
(Raspberry Pi OS has 9.4) do not deprecate ``getdata``, so the deprecation is also raised here as newer ones
raise it: the filters are checked on every Pillow."""

from __future__ import annotations

import warnings

from luma.core.interface.serial import noop
from luma.oled.device import ssd1306

from device.screens import Screen, render

GETDATA = "Image.Image.getdata is deprecated and will be removed in Pillow 14 (2027-10-15). Use get_flattened_data instead."


def deprecated_getdata(module: str) -> None:
    """Pillow's deprecation of ``getdata``, as called from ``module``."""
    warnings.warn_explicit(GETDATA, DeprecationWarning, module.replace(".", "/") + ".py", 1, module=module)


def test_only_lumas_pillow_deprecation_is_silenced() -> None:
    image = render(Screen("Gin", big="Ann 25"))
    with warnings.catch_warnings(record=True) as caught:  # under the session's filters
        ssd1306(noop()).display(image)  # luma calls image.getdata()
        deprecated_getdata("luma.core.device")
        assert caught == []
        deprecated_getdata("device.screens")  # the same call here is still reported
        warnings.warn("still reported", DeprecationWarning, stacklevel=1)
    assert [str(warning.message).split(" is ")[0] for warning in caught] == ["Image.Image.getdata", "still reported"]
