"""life: Conway's Game of Life on an N x N torus for G generations; prints the number of live cells at the end.

The initial board has cell (i,j), i,j = 1..N, alive when (7i^2+13j^2+5ij) mod 17 < 6.
Checked by hand: for N=3 the board has 5 live cells and all die in one generation ("life.py 3 0" prints 5,
"life.py 3 1" prints 0); at N=16 G=10 a plain-Python set-based Life gave the same count. life.c agrees at all sizes.
Usage: life.py [N [G]]  (defaults N = 1000, G = 100).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
G = int(sys.argv[2]) if len(sys.argv) > 2 else 100


def step(board):
    """One generation: count the 8 neighbours by rolling the torus, then apply the birth and survival rules."""
    neighbours = sum(
        np.roll(np.roll(board, dr, axis=0), dc, axis=1).astype(np.uint8)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr, dc) != (0, 0)
    )
    return (neighbours == 3) | (board & (neighbours == 2))


i = np.arange(1, N + 1, dtype=np.int64)
board = (7 * i * i)[:, None] + (13 * i * i)[None, :] + 5 * np.outer(i, i)
board = board % 17 < 6
for _ in range(G):
    board = step(board)
print(int(board.sum()))
