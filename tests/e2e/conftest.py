"""What the real-client tests need: Xvfb and the clients (``scripts/install-clients`` installs them).

Under ``./scripts/test`` (``pytest --full``) a test whose client cannot start fails with the reason; in a bare
``pytest`` run that names the tests, it is skipped with the reason."""

from __future__ import annotations

import shutil
from collections.abc import Callable

import pytest

from sweeplab.clients import get_spec


def need(request: pytest.FixtureRequest, *clients: str) -> None:
    """Fail (``--full``) or skip the test unless Xvfb and every one of ``clients`` are installed."""
    missing = [] if shutil.which("Xvfb") else ["Xvfb"]
    missing += [c for c in clients if not get_spec(c).installed()]
    if missing:
        reason = f"{', '.join(missing)} not installed: run scripts/install-clients"
        if request.config.getoption("full"):
            pytest.fail(reason)
        pytest.skip(reason)


#: what the ``needs`` fixture gives a test: ``needs("xdemineur")`` (see :func:`need`)
Needs = Callable[..., None]


@pytest.fixture
def needs(request: pytest.FixtureRequest) -> Needs:
    return lambda *clients: need(request, *clients)
