"""Screen capture, locating the board and reading its cells; pure functions on numpy arrays."""
