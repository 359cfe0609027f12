"""sobol: Monte-Carlo pi from the first N points (indices 1..N) of the 2-dimensional Sobol sequence, D=26 bits.

Dimension 1: direction numbers v_k = 2^-k; dimension 2: primitive polynomial x+1 (m_k = m_{k-1} xor 2 m_{k-1}).
Point i is the xor of the v_k for the bits k set in i. Prints 4*(points with x^2+y^2<=1)/N.
Checked by hand: the first 8 points, worked on paper, have all but the 7th inside: N=4 prints 4, N=8 prints 3.5;
sobol.c prints the same digits at every size (all arithmetic is exact). Usage: sobol.py [N] (default 10000000).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000000
D = 26


def direction_numbers():
    """The integer direction numbers v_k * 2^D of both dimensions, k = 1..D."""
    v1, v2, m = [], [], 1
    for k in range(1, D + 1):
        if k > 1:
            m ^= m << 1
        v1.append(1 << (D - k))
        v2.append(m << (D - k))
    return np.array(v1, dtype=np.int64), np.array(v2, dtype=np.int64)


def sobol_points(index, directions):
    """The coordinate (as an integer of D bits) of every point in `index` for one dimension."""
    coordinate = np.zeros_like(index)
    for k in range(D):
        coordinate ^= np.where((index >> k) & 1 == 1, directions[k], 0)
    return coordinate


v1, v2 = direction_numbers()
index = np.arange(1, N + 1, dtype=np.int64)
x = sobol_points(index, v1) / float(1 << D)
y = sobol_points(index, v2) / float(1 << D)
inside = np.count_nonzero(x * x + y * y <= 1.0)
print("%.10g" % (4.0 * (inside / N)))
