"""Shared test fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(name="mock_pins")
def mock_pins_fixture() -> Iterator[Any]:
    """gpiozero's mock pins as its pin factory for the test (buttons are driven with
    ``mock_pins.pin(17).drive_low()``), so no test looks for a Pi's GPIO and warns as it falls back."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    before = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.close()
    Device.pin_factory = before
