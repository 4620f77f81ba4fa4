"""The game loop: capture, locate, read, check, solve, act, settle; and recording what it saw and did."""
