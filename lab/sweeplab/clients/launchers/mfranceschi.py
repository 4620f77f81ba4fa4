"""Open mfranceschi-minesweeper with a board of any size, in its default theme.

Its own entry point (``mf-mines``) starts on the 8x8 level; here the same window is built and its
controller's new-game call is given the requested size, as the level list does for its three levels.
"""

from __future__ import annotations

import argparse

from mfranceschi_minesweeper.controller.controller import DifficultyLevel
from mfranceschi_minesweeper.controller.controller_impl import ControllerImpl
from mfranceschi_minesweeper.utils import Point2D
from mfranceschi_minesweeper.view.gui_impl import GUIImpl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cols", type=int, required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--mines", type=int, required=True)
    args = parser.parse_args()
    controller = ControllerImpl()
    gui = GUIImpl(grid_dim=controller.game.difficulty.grid_dim, controller=controller)
    controller.init_gui(gui)
    controller.on_new_game(DifficultyLevel(nbr_mines=args.mines, grid_dim=Point2D(args.cols, args.rows)))
    gui.root.mainloop()


if __name__ == "__main__":
    main()
