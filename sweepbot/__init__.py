"""sweepbot: plays real Minesweeper clients by reading the screen and moving the mouse."""

__version__ = "0.1.0"
