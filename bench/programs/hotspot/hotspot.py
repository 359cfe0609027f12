"""hotspot: the Rodinia HotSpot thermal simulation, an explicit 5-point stencil on an N x N grid for S steps.

Rodinia's constants (chip 16 mm x 16 mm x 0.5 mm); an edge cell uses itself for a missing neighbour, which equals
Rodinia's special-cased edges and corners. Inputs: temperature 320+0.5*((7i+13j) mod 17), power 0.001*(1+(ij mod 13))
for i,j = 1..N. Prints the sum of the final temperatures.
Checked by hand: for N=1 S=1 the single cell has no neighbours, T = 320+0.5*(20 mod 17) = 321.5, P = 0.002,
Cap = 0.5*1.75e6*0.0005*0.016^2 = 0.112, step = 0.001/(3e6/437.5) = 1.4583e-7, Rz = 0.0005/(100*0.016^2) =
0.01953125, so T' = 321.5 + (1.4583e-7/0.112)*(0.002+(80-321.5)/Rz) = 321.5 - 0.0161 = 321.4839 (worked on paper),
which hotspot.c and this program print for N=1 S=1; they agree at all sizes.
Usage: hotspot.py [N [S]]  (defaults N = 512, S = 360).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 512
S = int(sys.argv[2]) if len(sys.argv) > 2 else 360

MAX_PD, PRECISION, SPEC_HEAT_SI, K_SI, FACTOR_CHIP = 3.0e6, 0.001, 1.75e6, 100, 0.5
T_CHIP, CHIP_HEIGHT, CHIP_WIDTH, AMB_TEMP = 0.0005, 0.016, 0.016, 80.0

grid_height, grid_width = CHIP_HEIGHT / N, CHIP_WIDTH / N
cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height
rx = grid_width / (2.0 * K_SI * T_CHIP * grid_height)
ry = grid_height / (2.0 * K_SI * T_CHIP * grid_width)
rz = T_CHIP / (K_SI * grid_height * grid_width)
step_div_cap = (PRECISION / (MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI))) / cap


def step(temp, power):
    """One explicit time step; the padded copy repeats the edge rows and columns (a zero difference)."""
    padded = np.pad(temp, 1, mode="edge")
    up, down = padded[:-2, 1:-1], padded[2:, 1:-1]
    left, right = padded[1:-1, :-2], padded[1:-1, 2:]
    delta = step_div_cap * (
        power + (up + down - 2.0 * temp) / ry + (left + right - 2.0 * temp) / rx + (AMB_TEMP - temp) / rz
    )
    return temp + delta


i = np.arange(1, N + 1, dtype=np.int64)
temp = 320.0 + 0.5 * ((7 * i[:, None] + 13 * i[None, :]) % 17)
power = 0.001 * (1 + np.outer(i, i) % 13)
for _ in range(S):
    temp = step(temp, power)
print("%.10g" % temp.sum())
