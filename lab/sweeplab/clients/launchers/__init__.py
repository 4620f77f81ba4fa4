"""Small programs that open a PyPI client's window at a chosen board size.

Each runs with the client's own virtual env's python (``scripts/install-clients`` makes them), never with
sweepbot's: they import only the client's package and the standard library, and take ``--cols``, ``--rows``
and ``--mines``.
"""
