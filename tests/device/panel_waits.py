"""Waiting with a deadline, shared by the seat panel tests: every wait ends, passed or failed."""

import time

WAIT = 3.0


def until(condition, timeout=WAIT):
    """Whether `condition()` came true within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False


def take(panel, count, timeout=WAIT):
    """The next `count` events from a SeatPanel, failing if one is more than `timeout` late."""
    got = []
    for _ in range(count):
        event = panel.get(timeout=timeout)
        assert event is not None, f"only {got} arrived"
        got.append(event)
    return got
