"""What the engine refuses: ``RuleError`` and its kinds, each with a message for a player.

A rule error is what the rules (or a request's form) do not allow; a device shows its message and keeps
its state. Any other exception is a fault, never taken for a refusal.

>>> from scoring.requests import RequestError
>>> issubclass(RequestError, RuleError), issubclass(KeyError, RuleError)
(True, False)
"""

from __future__ import annotations

__all__ = ["RuleError"]


class RuleError(ValueError):
    """Something the rules do not allow: an impossible event, a bad request, an unknown card; the message
    says what, in words a player reads."""
