"""A generated client as a desktop window (Tk): the board, its controls and its manners as its make-up says.

    python generated_window.py MAKEUP.json [--boards SEED] [--truth FILE]

The board is a canvas of one image per cell (the make-up's tiles, pixel for pixel); a tile is lit under the
pointer or drawn pressed while the button is down on it, as the make-up says; a press shorter than the
make-up's hold is not taken, on the board and on every control. The new game comes the make-up's way: a key,
a face, a button labelled so beside the board or far from it among buttons that do other things, a level
menu between games, or a dialog after a game. ``--truth`` keeps the board's true looks in a file (JSON) at
every change, for tests.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tkinter as tk
from pathlib import Path

from PIL import Image, ImageTk

from sweeplab.generated.rules import Minefield
from sweeplab.generated.spec import LEVELS, ClientMakeUp
from sweeplab.generated.tiles import draw_look

TK_KEYS = {"f2": "<F2>", "n": "<n>", "space": "<space>"}


def hex_colour(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


class Window:
    def __init__(self, root: tk.Tk, make: ClientMakeUp, boards: random.Random, truth: Path | None) -> None:
        self.root, self.make, self.boards, self.truth = root, make, boards, truth
        self.manners = make.manners
        bg = hex_colour(make.palette.background)
        root.title(make.title)
        root.configure(background=bg)
        self.sprites = {look: ImageTk.PhotoImage(Image.fromarray(draw_look(make, look)))
                        for look in ("#", "F", "?", ".", "1", "2", "3", "4", "5", "6", "7", "8", "*", "!", "X",
                                     "lit", "pressed")}
        self.games = 0
        self.field: Minefield | None = None
        self.level = make.level
        self.hover: tuple[int, int] | None = None
        self.down: tuple[tuple[int, int], int, float] | None = None  # cell, button, when
        self.top = tk.Frame(root, background=bg)
        self.top.pack(side=tk.TOP, fill=tk.X, padx=8, pady=6)
        self.counter = tk.Label(self.top, text="", background=bg, foreground=hex_colour(make.palette.text),
                                font=("DejaVu Sans Mono", 14, "bold"))
        self.counter.pack(side=tk.LEFT)
        self.message = tk.Label(self.top, text="", background=bg, foreground=hex_colour(make.palette.text),
                                font=("DejaVu Sans", 12))
        self.message.pack(side=tk.RIGHT)
        self.face: tk.Canvas | None = None
        self.control: tk.Widget | None = None  # the new-game control on screen now, for the truth
        if self.manners.new_game == "face":
            self.face = tk.Canvas(self.top, width=30, height=30, background=bg, highlightthickness=0)
            self.face.create_oval(3, 3, 27, 27, fill="#ffd800", outline="#000000")
            self.face.create_oval(10, 10, 13, 13, fill="#000000")
            self.face.create_oval(17, 10, 20, 13, fill="#000000")
            self.face.create_arc(9, 9, 21, 22, start=200, extent=140, style=tk.ARC)
            self.face.pack(side=tk.TOP)
            self.held(self.face, self.new_game)
            self.control = self.face
        self.middle = tk.Frame(root, background=bg)
        self.middle.pack(side=tk.TOP)
        self.board_frame = tk.Frame(self.middle, background=bg)
        self.board_frame.pack(side=tk.LEFT, padx=8, pady=4)
        self.canvas: tk.Canvas | None = None
        self.bottom = tk.Frame(root, background=bg)
        self.bottom.pack(side=tk.BOTTOM, fill=tk.X, padx=8, pady=6)
        if self.manners.new_game == "button-near":
            self.control = self.button(self.middle, self.manners.new_game_label, self.new_game)
            self.control.pack(side=tk.LEFT, padx=6)
        for label in self.manners.decoys:
            self.button(self.bottom, label, lambda label=label: self.decoy(label)).pack(side=tk.LEFT, padx=4)
        if self.manners.new_game == "button-far":
            self.control = self.button(self.bottom, self.manners.new_game_label, self.new_game)
            self.control.pack(side=tk.RIGHT, padx=4)
        if self.manners.new_game == "key":
            keys = self.manners.new_game_key
            sequence = "<Control-n>" if keys == ["ctrl", "n"] else TK_KEYS[keys[0]]
            root.bind(sequence, lambda _e: self.new_game())
        root.bind("<Escape>", lambda _e: self.close_dialogs())
        self.dialogs: list[tk.Toplevel] = []
        self.menu: tk.Frame | None = None
        self.new_game()

    # -- controls ---------------------------------------------------------------------------------------
    def button(self, parent: tk.Misc, label: str, action: object) -> tk.Button:
        widget = tk.Button(parent, text=label, font=("DejaVu Sans", 11))
        self.held(widget, action)
        return widget

    def held(self, widget: tk.Widget, action: object) -> None:
        """``action`` on a press of the left button held at least the make-up's hold, released on ``widget``."""
        pressed: dict[str, float] = {}

        def press(_event: tk.Event) -> None:
            pressed["at"] = time.monotonic()

        def release(event: tk.Event) -> None:
            at = pressed.pop("at", None)
            inside = 0 <= event.x < widget.winfo_width() and 0 <= event.y < widget.winfo_height()
            if at is not None and inside and time.monotonic() - at >= self.manners.hold:
                action()  # type: ignore[operator]

        widget.bind("<ButtonPress-1>", press, add="+")
        widget.bind("<ButtonRelease-1>", release, add="+")

    def decoy(self, label: str) -> None:
        """What a button that is not the new game does: opens a small window of its own."""
        dialog = tk.Toplevel(self.root)
        dialog.transient(self.root)
        dialog.title(label)
        tk.Label(dialog, text=f"{label}: nothing to change here.", padx=20, pady=20).pack()
        tk.Button(dialog, text="Close", command=dialog.destroy).pack(pady=6)
        self.dialogs.append(dialog)

    def close_dialogs(self) -> None:
        for dialog in self.dialogs:
            if dialog.winfo_exists():
                dialog.destroy()
        self.dialogs.clear()

    # -- the game ---------------------------------------------------------------------------------------
    def new_game(self, level: str | None = None) -> None:
        self.close_dialogs()
        if self.menu is not None:
            self.menu.destroy()
            self.menu = None
        self.level = level or self.level
        cols, rows, mines = LEVELS[self.level]
        self.field = Minefield(cols, rows, mines, self.manners.first_click, self.boards)
        self.games += 1
        self.message.configure(text="")
        self.draw_board(cols, rows)
        self.refresh()

    def draw_board(self, cols: int, rows: int) -> None:
        if self.canvas is not None:
            self.canvas.destroy()
        make, pitch, border = self.make, self.make.pitch, self.make.tiles.border
        width = border * 2 + cols * pitch - make.tiles.gap
        height = border * 2 + rows * pitch - make.tiles.gap
        self.canvas = tk.Canvas(self.board_frame, width=width, height=height, highlightthickness=0,
                                background=hex_colour(make.palette.background))
        self.canvas.pack()
        self.items = {(r, c): self.canvas.create_image(border + c * pitch, border + r * pitch, anchor=tk.NW,
                                                        image=self.sprites["#"])
                      for r in range(rows) for c in range(cols)}
        self.canvas.bind("<ButtonPress-1>", lambda e: self.press(e, 1))
        self.canvas.bind("<ButtonPress-3>", lambda e: self.press(e, 3))
        self.canvas.bind("<ButtonRelease-1>", lambda e: self.release(e, 1))
        self.canvas.bind("<ButtonRelease-3>", lambda e: self.release(e, 3))
        self.canvas.bind("<Motion>", self.motion)
        self.canvas.bind("<Leave>", lambda _e: self.motion(None))

    def cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        assert self.field is not None
        border, pitch = self.make.tiles.border, self.make.pitch
        c, r = (x - border) // pitch, (y - border) // pitch
        inside = (x - border) % pitch < self.make.cell and (y - border) % pitch < self.make.cell
        if inside and 0 <= r < self.field.rows and 0 <= c < self.field.cols:
            return (r, c)
        return None

    def press(self, event: tk.Event, button: int) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.down = (cell, button, time.monotonic())
            self.refresh()

    def release(self, event: tk.Event, button: int) -> None:
        down, self.down = self.down, None
        cell = self.cell_at(event.x, event.y)
        field = self.field
        if down is None or field is None or cell != down[0] or down[1] != button:
            self.refresh()
            return
        was_over = field.over()
        if time.monotonic() - down[2] >= self.manners.hold:
            if button == 1:
                field.open(cell)
            elif self.manners.right_click != "none":
                field.mark(cell, self.manners.right_click == "cycle")
        self.refresh()
        if field.over() and not was_over:  # a click on a board already over ends no game
            self.game_over()

    def motion(self, event: tk.Event | None) -> None:
        cell = None if event is None else self.cell_at(event.x, event.y)
        if cell != self.hover:
            self.hover = cell
            self.refresh()

    def look(self, cell: tuple[int, int]) -> str:
        assert self.field is not None
        look = self.field.look(cell, self.manners.shows_mines_at_loss, self.manners.flags_mines_at_win)
        if look == "#" and not self.field.over():
            if self.down is not None and self.down[0] == cell and self.down[1] == 1 and \
                    self.make.tiles.pressed == "sunken":
                return "pressed"
            if cell == self.hover and self.make.tiles.hover != "none":
                return "lit"
        return look

    def refresh(self) -> None:
        field, canvas = self.field, self.canvas
        assert field is not None and canvas is not None
        looks = {}
        for cell, item in self.items.items():
            looks[cell] = self.look(cell)
            canvas.itemconfigure(item, image=self.sprites[looks[cell]])
        counter = self.manners.counter
        left = field.flags_left()
        text = {"none": "", "digital": f"{left:03d}", "text": f"Mines: {left}",
                "fraction": f"{field.mines - left}/{field.mines}"}[counter]
        self.counter.configure(text=text)
        self.write_truth()

    def write_truth(self) -> None:
        """The board's true looks, the game's state, where the board and the new-game control are (relative
        to the window's client area), into the truth file."""
        field, canvas = self.field, self.canvas
        if self.truth is None or field is None:
            return
        rows = ["".join(field.look((r, c), self.manners.shows_mines_at_loss, self.manners.flags_mines_at_win)
                        for c in range(field.cols)) for r in range(field.rows)]
        origin = (self.root.winfo_rootx(), self.root.winfo_rooty())

        def box(widget: tk.Widget | None) -> list[int] | None:
            if widget is None or not widget.winfo_exists() or not widget.winfo_ismapped():
                return None
            return [widget.winfo_rootx() - origin[0], widget.winfo_rooty() - origin[1], widget.winfo_width(),
                    widget.winfo_height()]

        board = box(canvas)
        if board is not None:
            board[0] += self.make.tiles.border
            board[1] += self.make.tiles.border
        labelled = [{"label": str(w.cget("text")), "box": box(w)} for w in self.widgets(self.root)
                    if isinstance(w, tk.Button) and box(w) is not None]
        truth = {"game": self.games, "state": field.state, "looks": rows, "board": board,
                 "pitch": self.make.pitch, "cell": self.make.cell, "control": box(self.control),
                 "controls": labelled}
        part = self.truth.with_suffix(".part")
        part.write_text(json.dumps(truth))
        part.replace(self.truth)

    def widgets(self, parent: tk.Misc) -> list[tk.Misc]:
        """Every widget under ``parent`` (its dialogs' too; their boxes are on the screen, not in the window)."""
        out: list[tk.Misc] = []
        for child in parent.winfo_children():
            out += [child, *self.widgets(child)]
        return out

    def game_over(self) -> None:
        assert self.field is not None
        won = self.field.state == "won"
        if self.manners.message_at_end:
            self.message.configure(text="You won!" if won else "Game over")
        if self.manners.new_game == "dialog":
            dialog = tk.Toplevel(self.root)
            dialog.transient(self.root)  # a dialog of this window, as toolkits mark theirs
            dialog.title("Game over")
            tk.Label(dialog, text="You won!" if won else "You hit a mine.", padx=30, pady=16).pack()
            self.button(dialog, self.manners.new_game_label, self.new_game).pack(side=tk.LEFT, padx=10, pady=10)
            dialog.update_idletasks()
            tk.Button(dialog, text="Close", command=dialog.destroy).pack(side=tk.RIGHT, padx=10, pady=10)
            self.dialogs.append(dialog)
        elif self.manners.new_game == "menu":
            self.root.after(600, self.show_menu)

    def show_menu(self) -> None:
        """A level menu between games: a button for each level (its name, the label the make-up keeps)."""
        if self.canvas is not None:
            self.canvas.destroy()
            self.canvas = None
        menu = tk.Frame(self.board_frame, background=hex_colour(self.make.palette.background))
        menu.pack(padx=40, pady=40)
        tk.Label(menu, text="Choose a level", font=("DejaVu Sans", 14)).pack(pady=8)
        for level in LEVELS:
            cols, rows, _ = LEVELS[level]
            self.button(menu, f"{level.capitalize()} {cols}x{rows}", lambda level=level: self.new_game(level)).pack(
                fill=tk.X, pady=4)
        self.menu = menu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("makeup", help="the make-up's JSON file")
    parser.add_argument("--boards", type=int, help="seed of the mines' places (default: fresh ones every run)")
    parser.add_argument("--truth", help="a file to keep the board's true looks in, at every change")
    args = parser.parse_args()
    make = ClientMakeUp.from_json(Path(args.makeup).read_text(encoding="utf-8"))
    root = tk.Tk()
    window = Window(root, make, random.Random(args.boards), Path(args.truth) if args.truth else None)

    def keep_truth() -> None:  # the window's place changes after it is mapped (a window manager moves it)
        window.write_truth()
        root.after(500, keep_truth)

    root.after(300, keep_truth)
    root.mainloop()


if __name__ == "__main__":
    main()
