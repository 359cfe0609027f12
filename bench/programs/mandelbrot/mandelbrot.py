"""mandelbrot: escape-time iteration z = z^2 + c over a whole M x M grid of c in [-2,0.5) x [-1.25,1.25), K steps.

A point stops moving once |z|^2 > 4; prints the number of points still inside (|z|^2 <= 4).
Checked by hand: for M=2 (c = -2-1.25i, -0.75-1.25i, -2, -0.75) K=1 and K=2 leave 3 points inside and K=3 leaves 2,
worked on paper; mandelbrot.c prints the same counts at every size. Usage: mandelbrot.py [M [K]] (defaults 512, 100).
"""
import sys

import numpy as np

M = int(sys.argv[1]) if len(sys.argv) > 1 else 512
K = int(sys.argv[2]) if len(sys.argv) > 2 else 100

steps = np.arange(M, dtype=np.float64) / M
cr = np.broadcast_to(-2.0 + 2.5 * steps, (M, M))
ci = np.broadcast_to((-1.25 + 2.5 * steps)[:, None], (M, M))
zr = np.zeros((M, M))
zi = np.zeros((M, M))
for _ in range(K):
    inside = zr * zr + zi * zi <= 4.0
    zr, zi = np.where(inside, cr + (zr * zr - zi * zi), zr), np.where(inside, ci + 2.0 * (zr * zi), zi)
print(int((zr * zr + zi * zi <= 4.0).sum()))
