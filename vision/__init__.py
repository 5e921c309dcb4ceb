"""Frames in, observations out: finding and reading cards and dice with OpenCV. No game rules here."""
