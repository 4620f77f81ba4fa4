"""Live calibration: play a few games on a client sweepbot cannot read yet, and record what the game proves.

The steps (:mod:`.run`): find the board (it must be a new game: one look everywhere), learn how the client
marks cells (right-click once: a flag; twice: a question mark, if the client has them), then play games
(:mod:`.game`): click a cell, wait for the board to settle (:mod:`.driver`), and record what changed as facts
(:mod:`.session`): a cell that opened is a number or empty; at a loss the clicked cell is the exploded mine,
cells that changed elsewhere are mines, and a flag that changed was wrong. A click that changes nothing means
the game is over. After each game the looks are named again (:mod:`sweepbot.calibration.naming`) and the
next game's moves are chosen by the solver on what can be read (:mod:`.choose`, with the looks of
:mod:`.tiles`), so that later games go further (a win shows every mine as well). Between games the client's
new-game key is found (tried in turn) or its face clicked (:mod:`.newgame`). Every click is inside the board
just located, except a face click, which is only sent where a face is.
"""
