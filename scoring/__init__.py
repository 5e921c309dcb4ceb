"""The shared scoring engine: pure functions of cards and dice, with itemised results.

Nothing here reads a clock, a file or a pin; ``scoring.cards`` holds the card model and one module a
game holds that game's rules.
"""
