"""MicroPython firmware for the seat panel (a Raspberry Pi Pico), and the serial protocol both sides share."""
