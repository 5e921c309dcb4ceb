"""Text of any language as the OLED's font can draw it: the glyphs of code page 437 (the IBM PC's, which
luma's bitmap font follows), with what that page lacks spelt in letters it has.

A character the page holds is drawn as itself (é, ü, å, ñ, ß, æ, £ and the Greek letters it has), the suits
and a few signs from the page's graphic characters; a Latin letter it lacks loses its accents (ş → s,
ő → o) or is spelt out (ø → o, œ → oe, þ → th); Greek and Cyrillic are transliterated (Ольга → Ol'ga,
Ζωή → Zoi). A character of any other script has no spelling here and is drawn as ``?``.

>>> codes("José 5♥")  # é is glyph 130 of the page, ♥ glyph 3
[74, 111, 115, 130, 32, 53, 3]
>>> spelt("José Zoë Jürgen Søren Ольга Łukasz 5♥"), spelt("Ζωή Νίκος"), spelt("李")
("José Zoë Jürgen Soren Ol'ga Lukasz 5♥", 'Zoi Nikos', '?')
"""

from __future__ import annotations

import unicodedata
from functools import cache

GRAPHICS = {"♥": 3, "♦": 4, "♣": 5, "♠": 6, "×": ord("x"), "\u00a0": ord(" ")}
"""Characters drawn with a glyph the code page keeps in its control range (the suits), or another's (a
space no line breaks at is as wide as a space)."""

SPELT = {
    # Latin letters without a glyph and without a decomposition to strip
    "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "œ": "oe", "Œ": "OE", "ı": "i", "ŧ": "t", "ħ": "h", "ŋ": "ng", "ĸ": "k", "ſ": "s",
    "…": "...", "’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-",
    # Greek (the code page has only some of its letters, so a Greek name is spelt whole in Latin)
    "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th", "ι": "i", "κ": "k",
    "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p", "ρ": "r", "σ": "s", "ς": "s", "τ": "t",
    "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps", "ω": "o",
    # Cyrillic (Russian, Ukrainian, Belarusian, Bulgarian, Serbian, Macedonian letters)
    "а": "a", "б": "b", "в": "v", "г": "g", "ґ": "g", "д": "d", "ђ": "dj", "ѓ": "gj", "е": "e", "ё": "yo",
    "є": "ye", "ж": "zh", "з": "z", "ѕ": "dz", "и": "i", "і": "i", "ї": "yi", "й": "y", "ј": "j", "к": "k",
    "л": "l", "љ": "lj", "м": "m", "н": "n", "њ": "nj", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "ћ": "c", "ќ": "kj", "у": "u", "ў": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "џ": "dz",
    "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "'", "э": "e", "ю": "yu", "я": "ya",
}
"""How a letter the code page lacks is spelt; capitals are looked up as their small letter, capitalised."""

UNKNOWN = ord("?")


def spelt(text: str) -> str:
    """``text`` in characters the font has (or ``?``): see the module's description."""
    return "".join(_spell(char) for char in text)


def codes(text: str) -> list[int]:
    """The font's glyph numbers (0-255) that draw ``text``."""
    return [code for char in text for code in _codes(char)]


@cache
def _codes(char: str) -> tuple[int, ...]:
    return tuple(_code(part) for part in _spell(char))


@cache
def _spell(char: str) -> str:
    if char in SPELT:
        return SPELT[char]
    small = char.lower()
    if small != char and small in SPELT:
        return SPELT[small].capitalize()
    if _code(char) != UNKNOWN or char == "?":
        return char
    bare = "".join(part for part in unicodedata.normalize("NFKD", char) if not unicodedata.combining(part))
    if bare != char and bare:
        return "".join(_spell(part) for part in bare)
    return "?"


def _code(char: str) -> int:
    """The glyph number of a character the font has as it is, else UNKNOWN."""
    if char in GRAPHICS:
        return GRAPHICS[char]
    try:
        (code,) = char.encode("cp437")
    except (UnicodeEncodeError, ValueError):
        return UNKNOWN
    return code if code >= 32 else UNKNOWN  # the page's control range holds graphics, not these characters
