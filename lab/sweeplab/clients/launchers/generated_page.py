"""A generated client as a web page: a small HTTP server on 127.0.0.1 keeps the game, Chromium shows the page.

    python generated_page.py MAKEUP.json [--boards SEED] [--truth FILE]

The page draws the board as a grid of images (the make-up's tiles, pixel for pixel at zoom 100 %), its
buttons and links as HTML: a link leaves the page for another one, a button other than the new game opens a
panel over the page. The page sends each press (its cell, button and how long it was held) to the server,
which plays it and answers with every cell's look. ``--truth`` keeps the board's true looks and where the
board and the new-game control are in the window (JSON), at every change.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import ctypes
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from PIL import Image

from sweeplab.generated.rules import Minefield
from sweeplab.generated.spec import LEVELS, ClientMakeUp
from sweeplab.generated.tiles import LOOKS, draw_look

CHROMIUM_FLAGS = ["--test-type", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-gpu", "--disable-default-apps", "--disable-domain-reliability",
                  "--disable-client-side-phishing-detection", "--disable-breakpad", "--no-pings",
                  "--disable-features=Translate,OptimizationHints,MediaRouter", "--password-store=basic"]
JS_KEYS = {"f2": "F2", "n": "n", "space": " "}


def data_url(pixels: Any) -> str:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def css(rgb: tuple[int, int, int]) -> str:
    return "rgb({},{},{})".format(*rgb)


class Game:
    """The game the page shows, kept by the server; every change written to the truth file."""

    def __init__(self, make: ClientMakeUp, boards: random.Random, truth: Path | None) -> None:
        self.make, self.boards, self.truth = make, boards, truth
        self.lock = threading.Lock()
        self.level = make.level
        self.games = 0
        self.layout: dict[str, Any] = {}
        self.field = self._new()

    def _new(self) -> Minefield:
        cols, rows, mines = LEVELS[self.level]
        self.games += 1
        return Minefield(cols, rows, mines, self.make.manners.first_click, self.boards)

    def new(self, level: str | None) -> None:
        with self.lock:
            self.level = level if level in LEVELS else self.level
            self.field = self._new()
            self.write()

    def act(self, cell: tuple[int, int], button: int, held: float) -> None:
        manners = self.make.manners
        with self.lock:
            if held < manners.hold:
                return
            if button == 0:
                self.field.open(cell)
            elif button == 2 and manners.right_click != "none":
                self.field.mark(cell, manners.right_click == "cycle")
            self.write()

    def state(self) -> dict[str, Any]:
        field, manners = self.field, self.make.manners
        looks = [[field.look((r, c), manners.shows_mines_at_loss, manners.flags_mines_at_win)
                  for c in range(field.cols)] for r in range(field.rows)]
        left = field.flags_left()
        counter = {"none": "", "digital": f"{left:03d}", "text": f"Mines: {left}",
                   "fraction": f"{field.mines - left}/{field.mines}"}[manners.counter]
        return {"game": self.games, "state": field.state, "looks": looks, "counter": counter,
                "rows": field.rows, "cols": field.cols}

    def write(self) -> None:
        if self.truth is None:
            return
        state = self.state()
        truth = {"game": state["game"], "state": state["state"], "looks": ["".join(row) for row in state["looks"]],
                 "pitch": self.make.pitch, "cell": self.make.cell, **self.layout}
        part = self.truth.with_suffix(".part")
        part.write_text(json.dumps(truth))
        part.replace(self.truth)


def page(make: ClientMakeUp) -> str:
    """The page: its styles, its script, its controls, as the make-up says."""
    m, p, t = make.manners, make.palette, make.tiles
    sprites = {look: data_url(draw_look(make, look)) for look in LOOKS}
    key = JS_KEYS.get(m.new_game_key[0]) if m.new_game == "key" and m.new_game_key != ["ctrl", "n"] else None
    config = {"sprites": sprites, "cell": make.cell, "gap": t.gap, "hold": m.hold, "hover": t.hover,
              "pressed": t.pressed, "newGame": m.new_game, "key": key, "label": m.new_game_label,
              "message": m.message_at_end, "levels": {name: list(size) for name, size in LEVELS.items()}}
    decoys = "".join(f'<button class="decoy">{label}</button>' for label in m.decoys)
    links = "".join(f'<a href="/away">{label}</a> ' for label in m.links)
    near = f'<button id="new" class="ctl">{m.new_game_label}</button>' if m.new_game == "button-near" else ""
    far = f'<button id="new" class="ctl">{m.new_game_label}</button>' if m.new_game == "button-far" else ""
    face = '<img id="new" class="ctl" src="/face.png" width="30" height="30">' if m.new_game == "face" else ""
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>{make.title}</title><style>
body {{ margin: 0; background: {css(p.background)}; color: {css(p.text)}; font-family: sans-serif; }}
#top {{ display: flex; align-items: center; gap: 16px; padding: 8px 12px; height: 36px; }}
#counter {{ font: bold 18px monospace; min-width: 60px; }}
#middle {{ display: flex; align-items: center; gap: 16px; padding: 4px 12px; }}
#board {{ display: grid; grid-template-columns: repeat(var(--cols), {make.cell}px); grid-auto-rows: {make.cell}px;
  gap: {t.gap}px; padding: {t.border}px; background: {css(p.background)}; user-select: none; }}
#board img {{ display: block; width: {make.cell}px; height: {make.cell}px; }}
#bottom {{ display: flex; gap: 8px; padding: 12px; align-items: center; }}
#far {{ margin-left: auto; }}
button {{ font-size: 15px; padding: 6px 14px; }}
a {{ color: {css(p.text)}; margin-right: 12px; }}
.panel {{ position: fixed; left: 30%; top: 25%; background: #fafafa; color: #111; padding: 24px; border: 1px solid #444;
  box-shadow: 0 4px 16px rgba(0,0,0,.4); }}
</style></head><body>
<div id="top"><span id="counter"></span>{face}<span id="message"></span><span>{links}</span></div>
<div id="middle"><div id="board"></div>{near}</div>
<div id="bottom">{decoys}<span id="far">{far}</span></div>
<script>
const C = {json.dumps(config)};
let state = null, hover = null, down = null, shown = [];
const board = document.getElementById("board");
document.addEventListener("contextmenu", e => e.preventDefault());
async function post(path, body) {{
  const r = await fetch(path, {{method: "POST", body: JSON.stringify(body || {{}})}});
  state = await r.json(); draw();
}}
function held(el, action) {{
  let at = null;
  el.addEventListener("mousedown", e => {{ if (e.button === 0) at = performance.now(); }});
  el.addEventListener("mouseup", e => {{
    if (e.button === 0 && at !== null && performance.now() - at >= C.hold * 1000) action();
    at = null;
  }});
}}
function look(r, c) {{
  let l = state.looks[r][c];
  const over = state.state === "won" || state.state === "lost";
  if (l === "#" && !over) {{
    if (down && down.r === r && down.c === c && down.b === 0 && C.pressed === "sunken") return "pressed";
    if (hover && hover.r === r && hover.c === c && C.hover !== "none") return "lit";
  }}
  return l;
}}
function build() {{
  board.innerHTML = ""; shown = [];
  board.style.setProperty("--cols", state.cols);
  for (let r = 0; r < state.rows; r++) {{
    shown.push([]);
    for (let c = 0; c < state.cols; c++) {{
      const img = document.createElement("img");
      img.draggable = false; img.src = C.sprites["#"];
      img.addEventListener("mousedown", e => {{ down = {{r, c, b: e.button, at: performance.now()}}; draw(); }});
      img.addEventListener("mouseup", e => {{
        const d = down; down = null;
        if (d && d.r === r && d.c === c && d.b === e.button)
          post("/act", {{cell: [r, c], button: e.button, held: (performance.now() - d.at) / 1000}});
        else draw();
      }});
      img.addEventListener("mouseenter", () => {{ hover = {{r, c}}; draw(); }});
      img.addEventListener("mouseleave", () => {{
        if (hover && hover.r === r && hover.c === c) hover = null;
        draw();
      }});
      board.appendChild(img); shown[r].push(img);
    }}
  }}
}}
let ended = 0;
function draw() {{
  if (!state) return;
  if (!shown.length || shown.length !== state.rows || shown[0].length !== state.cols) build();
  for (let r = 0; r < state.rows; r++) for (let c = 0; c < state.cols; c++) {{
    const src = C.sprites[look(r, c)];
    if (shown[r][c].src !== src) shown[r][c].src = src;
  }}
  document.getElementById("counter").textContent = state.counter;
  const over = state.state === "won" || state.state === "lost";
  const said = state.state === "won" ? "You won!" : "Game over";
  document.getElementById("message").textContent = over && C.message ? said : "";
  if (over && ended !== state.game) {{ ended = state.game; gameOver(); }}
  layout();
}}
function panel(html) {{
  const p = document.createElement("div"); p.className = "panel"; p.innerHTML = html;
  document.body.appendChild(p); return p;
}}
function closePanels() {{ document.querySelectorAll(".panel").forEach(p => p.remove()); }}
function newGame(level) {{ closePanels(); post("/new", {{level}}); }}
function gameOver() {{
  if (C.newGame === "dialog") {{
    const p = panel(`<p>${{state.state === "won" ? "You won!" : "You hit a mine."}}</p>` +
                    `<button class="again">${{C.label}}</button> <button class="close">Close</button>`);
    held(p.querySelector(".again"), () => newGame());
    p.querySelector(".close").addEventListener("click", () => p.remove());
  }} else if (C.newGame === "menu") {{
    setTimeout(() => {{
      const p = panel("<p>Choose a level</p>");
      for (const [name, size] of Object.entries(C.levels)) {{
        const b = document.createElement("button");
        b.textContent = name[0].toUpperCase() + name.slice(1) + " " + size[0] + "x" + size[1];
        held(b, () => newGame(name)); p.appendChild(b);
      }}
    }}, 600);
  }}
}}
function box(el) {{
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width ? [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)] : null;
}}
let sent = "";
function layout() {{
  const b = box(board);
  const t = C.gap !== undefined && b ? [b[0] + {t.border}, b[1] + {t.border}, b[2], b[3]] : null;
  const control = document.getElementById("new") || document.querySelector(".panel .again");
  const controls = Array.from(document.querySelectorAll("button, a")).map(
    el => ({{label: el.textContent, box: box(el), link: el.tagName === "A"}})).filter(c => c.box);
  const now = JSON.stringify({{board: t, control: box(control), controls}});
  if (now !== sent) {{ sent = now; fetch("/layout", {{method: "POST", body: now}}); }}
}}
const ctl = document.getElementById("new");
if (ctl) held(ctl, () => newGame());
const CLOSE = '<button onclick="this.parentNode.remove()">Close</button>';
document.querySelectorAll(".decoy").forEach(b => b.addEventListener("click",
  () => panel(`<p>${{b.textContent}}: nothing to change here.</p>` + CLOSE)));
document.addEventListener("keydown", e => {{
  if (e.key === "Escape") closePanels();
  if (C.key && e.key === C.key) {{ e.preventDefault(); newGame(); }}
}});
setInterval(layout, 500);
fetch("/state").then(r => r.json()).then(s => {{ state = s; draw(); }});
</script></body></html>"""


def face_png() -> bytes:
    from PIL import ImageDraw

    image = Image.new("RGB", (30, 30), (200, 200, 200))
    draw = ImageDraw.Draw(image)
    draw.ellipse([3, 3, 27, 27], fill=(255, 216, 0), outline=(0, 0, 0))
    draw.ellipse([10, 10, 13, 13], fill=(0, 0, 0))
    draw.ellipse([17, 10, 20, 13], fill=(0, 0, 0))
    draw.arc([9, 9, 21, 22], 20, 160, fill=(0, 0, 0))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def serve(make: ClientMakeUp, game: Game) -> ThreadingHTTPServer:
    html = page(make).encode()
    face = face_png()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def send(self, body: bytes, kind: str = "application/json") -> None:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path == "/":
                self.send(html, "text/html; charset=utf-8")
            elif self.path == "/state":
                self.send(json.dumps(game.state()).encode())
            elif self.path == "/face.png":
                self.send(face, "image/png")
            else:  # a link: another page, the game left behind
                self.send(b"<!doctype html><title>Elsewhere</title><p>Another page.</p>", "text/html")

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            if self.path == "/act":
                game.act(tuple(body["cell"]), int(body["button"]), float(body["held"]))
            elif self.path == "/new":
                game.new(body.get("level"))
            elif self.path == "/layout":
                with game.lock:
                    game.layout = {"board": body.get("board"), "control": body.get("control"),
                                   "controls": body.get("controls", [])}
                    game.write()
            self.send(json.dumps(game.state()).encode())

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def die_with_parent() -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def window_size(make: ClientMakeUp) -> tuple[int, int]:
    cols, rows, _ = LEVELS["large"] if make.manners.new_game == "menu" else LEVELS[make.level]
    width = cols * make.pitch + 2 * make.tiles.border + 260
    height = rows * make.pitch + 2 * make.tiles.border + 170
    return max(640, min(1260, width)), max(480, min(1000, height))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("makeup", help="the make-up's JSON file")
    parser.add_argument("--boards", type=int, help="seed of the mines' places (default: fresh ones every run)")
    parser.add_argument("--truth", help="a file to keep the board's true looks in, at every change")
    args = parser.parse_args()
    make = ClientMakeUp.from_json(Path(args.makeup).read_text(encoding="utf-8"))
    game = Game(make, random.Random(args.boards), Path(args.truth) if args.truth else None)
    server = serve(make, game)
    browser = shutil.which("chromium")
    if browser is None:
        raise SystemExit("chromium is not installed (scripts/install-clients installs it)")
    width, height = window_size(make)
    profile = os.path.join(os.environ.get("HOME", "/tmp"), "chromium-profile")
    argv = [browser, f"--app=http://127.0.0.1:{server.server_address[1]}/", f"--user-data-dir={profile}",
            f"--window-size={width},{height}", "--window-position=0,0", *CHROMIUM_FLAGS]
    if os.geteuid() == 0:
        argv.append("--no-sandbox")
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=die_with_parent)

    def stop(*_: object) -> None:
        proc.terminate()
        server.shutdown()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    proc.wait()
    server.shutdown()


if __name__ == "__main__":
    main()
