"""Serve nicegui-minesweeper's board at a chosen size on 127.0.0.1 and show it in a Chromium app window.

The package's own start function always makes a 10x10 board and listens on every interface; here its
``Game`` is put on a page of a NiceGUI server bound to 127.0.0.1 on a free port, with the same title and
the same blocking of the browser's context menu (a right click flags a square). Once the server answers,
Chromium opens the page as an app window (no tabs, no address bar) with a private profile under ``$HOME``
and its background services off. When Chromium quits (a user closed its window) the server stops; SIGTERM
or SIGINT stops the server, then Chromium.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import threading
import time

from nicegui import app, ui
from nicegui_minesweeper import Game

TITLE = "Minesweeper"
BLOCK_CONTEXT_MENU = "document.addEventListener('contextmenu', event => event.preventDefault())"
CHROMIUM_FLAGS = [
    "--test-type",  # no info bar about unsupported flags
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-breakpad",
    "--no-pings",
    "--disable-features=Translate,OptimizationHints,MediaRouter",
    "--password-store=basic",
]
_PR_SET_PDEATHSIG = 1


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers(port: int) -> bool:
    """Whether something accepts connections on ``port`` of 127.0.0.1."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def die_with_parent() -> None:
    """In the browser's process before exec: get SIGTERM when this launcher dies."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def chromium_argv(browser: str, url: str, width: int, height: int, scale: float = 1.0) -> list[str]:
    """Chromium's command line: an app window on ``url`` with a private profile under ``$HOME``, ``scale``
    screen pixels to the CSS pixel (a HiDPI screen), the window grown to match."""
    profile = os.path.join(os.environ.get("HOME", "/tmp"), "chromium-profile")
    argv = [browser, f"--app={url}", f"--user-data-dir={profile}", f"--window-size={width},{height}",
            "--window-position=0,0", *CHROMIUM_FLAGS]
    if scale != 1.0:
        argv.append(f"--force-device-scale-factor={scale:g}")
    if os.geteuid() == 0:
        argv.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return argv


def run_browser(browser_path: str, port: int, width: int, height: int, scale: float,
                started: list[subprocess.Popen[bytes]]) -> None:
    """Wait for the server, run Chromium on it (kept in ``started``), stop the server when it exits."""
    deadline = time.monotonic() + 60
    while not answers(port):
        if time.monotonic() > deadline:
            app.shutdown()
            return
        time.sleep(0.05)
    browser = subprocess.Popen(chromium_argv(browser_path, f"http://127.0.0.1:{port}/", width, height, scale),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, preexec_fn=die_with_parent)
    started.append(browser)
    browser.wait()
    app.shutdown()


def stop(browser: subprocess.Popen[bytes]) -> None:
    """Stop Chromium: SIGTERM, then SIGKILL after 5 s."""
    browser.terminate()
    try:
        browser.wait(timeout=5)
    except subprocess.TimeoutExpired:
        browser.kill()
        browser.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--mines", type=int, required=True)
    parser.add_argument("--width", type=int, default=1000, help="browser window width")
    parser.add_argument("--height", type=int, default=1000, help="browser window height")
    parser.add_argument("--scale", type=float, default=1.0, help="screen pixels to the CSS pixel (HiDPI)")
    parser.add_argument("--zoom", type=float, default=1.0, help="the page's zoom, as a user's browser zoom sets it")
    args = parser.parse_args()
    # NiceGUI runs its own test mode when it sees this variable, which a test that starts the client passes on
    os.environ.pop("PYTEST_CURRENT_TEST", None)
    if args.cols != args.rows:
        raise SystemExit("nicegui-minesweeper boards are square")
    browser_path = shutil.which("chromium")
    if browser_path is None:
        raise SystemExit("chromium is not installed (scripts/install-clients installs it)")

    @ui.page("/")
    def board() -> None:
        if args.zoom != 1.0:
            ui.add_head_html(f"<style>html {{ zoom: {args.zoom:g}; }}</style>")
        Game(grid_size=args.cols, num_mines=args.mines)
        ui.timer(0.5, lambda: ui.run_javascript(BLOCK_CONTEXT_MENU), once=True)

    port = free_port()
    started: list[subprocess.Popen[bytes]] = []
    width, height = round(args.width * args.scale * args.zoom), round(args.height * args.scale * args.zoom)
    browser_args = (browser_path, port, width, height, args.scale, started)
    threading.Thread(target=run_browser, args=browser_args, daemon=True).start()
    try:
        # uvicorn stops on SIGTERM and SIGINT by itself; the browser is stopped after it
        ui.run(host="127.0.0.1", port=port, title=TITLE, show=False, reload=False, show_welcome_message=False)
    finally:
        for browser in started:
            stop(browser)


if __name__ == "__main__":
    main()
