"""The main buttons, driven through gpiozero's MockFactory."""

import time

import pytest
from gpiozero.pins.mock import MockFactory

from device.buttons import Buttons, Press


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def press(factory: MockFactory, pin: int, seconds: float = 0.0) -> None:
    factory.pin(pin).drive_low()
    time.sleep(seconds)
    factory.pin(pin).drive_high()


def wait_for(buttons: Buttons, count: int) -> list[Press]:
    taken: list[Press] = []
    deadline = time.monotonic() + 5
    while len(taken) < count and time.monotonic() < deadline:
        taken += buttons.take()
        time.sleep(0.01)
    return taken


def test_presses_arrive_in_order(factory: MockFactory) -> None:
    buttons = Buttons({"ok": 17, "back": 27, "next": 22}, pin_factory=factory)
    for pin in (22, 22, 17, 27):
        press(factory, pin)
    assert wait_for(buttons, 4) == [Press("next", False), Press("next", False), Press("ok", False),
                                    Press("back", False)]
    buttons.close()


def test_holding_ok_is_one_held_press_not_also_a_short_one(factory: MockFactory) -> None:
    buttons = Buttons({"ok": 17}, hold_time=0.05, pin_factory=factory)
    press(factory, 17, seconds=0.3)
    press(factory, 17)
    assert wait_for(buttons, 2) == [Press("ok", True), Press("ok", False)]
    time.sleep(0.1)
    assert buttons.take() == []
    buttons.close()


def test_unknown_button_name_is_refused(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="unknown button 'fire'"):
        Buttons({"fire": 5}, pin_factory=factory)
