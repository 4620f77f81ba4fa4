"""Learning a client's tile look and storing it as a profile."""
