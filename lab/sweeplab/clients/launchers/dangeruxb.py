"""Open DangerUXB with a board of any size.

The package's entry module builds its window when imported, always on its first level, and loads its
images from paths relative to its own folder. This builds the same window (title, styles, the game
frame), adds the requested size to the level list the way its ``COLS*ROWS-MINES`` entries are written,
selects it and presses Start, as its own entry module does for its first level.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tkinter


def package_folder() -> str:
    """The installed DangerUXB folder, found without importing the package (that would start the game)."""
    spec = importlib.util.find_spec("DangerUXB")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("DangerUXB is not installed in this environment")
    return next(iter(spec.submodule_search_locations))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--mines", type=int, required=True)
    args = parser.parse_args()

    folder = package_folder()
    sys.path.insert(0, folder)  # its modules import each other as top-level modules
    os.chdir(folder)  # and open images/NN/NAME.gif relative to the current folder
    import gameWindow
    import styles
    import toolbar

    label = f"{args.cols}*{args.rows}-{args.mines}"
    if label not in toolbar.gameOption:
        toolbar.gameOption[label] = (args.cols, args.rows, args.mines)
        toolbar.optionTuple = (*toolbar.optionTuple, label)

    root = tkinter.Tk()
    root.resizable(True, True)
    root.title("Danger UXB")

    def quit_game() -> None:
        root.destroy()
        sys.exit()

    root.protocol("WM_DELETE_WINDOW", quit_game)
    styles.setupStyles()
    game = gameWindow.GameWindow(root)
    root.gameWindow = game  # type: ignore[attr-defined]
    game.toolbar.configBox.set(label)
    game.toolbar.startButton.invoke()
    game.mainloop()


if __name__ == "__main__":
    main()
