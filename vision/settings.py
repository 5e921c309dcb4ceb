"""Checking a vision settings dataclass (the card and dice trackers'): whole counts and distances.

>>> from dataclasses import dataclass
>>> @dataclass
... class Example:
...     frames: int = 2
...     far: float = 3.0
>>> check(Example(frames=0), "example", {"frames": 1}, ("far",))
Traceback (most recent call last):
...
ValueError: example setting 'frames' must be a whole number of at least 1, not 0
>>> check(Example(far=0.0), "example", {"frames": 1}, ("far",))
Traceback (most recent call last):
...
ValueError: example setting 'far' must be a positive distance, not 0.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def check(settings: object, what: str, counts: Mapping[str, int], distances: Iterable[str]) -> None:
    """Raise ValueError naming the first of ``counts`` that is not a whole number of at least its least
    value, or of ``distances`` that is not above 0."""
    for name, least in counts.items():
        value = getattr(settings, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"{what} setting {name!r} must be a whole number of at least {least}, not {value!r}")
    for name in distances:
        value = getattr(settings, name)
        if not value > 0:
            raise ValueError(f"{what} setting {name!r} must be a positive distance, not {value!r}")
