"""votes: N voters answer 8 yes/no questions; voter i says yes to question j when (7i+13j+ij) mod 11 < 5.

Prints Σc² + 3×(voters with c≥5) + max c over the voters' yes counts c. The answers are built a block of voters at a
time (a whole N×8 int64 table would take 640 MB at the full size); the counts are int8, as a NumPy user would keep them.
Checked by hand: N=1 gives 12, N=2 gives 29 (see votes.apl); votes.c prints the same.
Usage: votes.py [N]  (default N = 10000000).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10000000
BLOCK = 1 << 20

j = np.arange(1, 9, dtype=np.int64)
counts = np.empty(N, dtype=np.int8)
for start in range(0, N, BLOCK):
    i = np.arange(start + 1, min(start + BLOCK, N) + 1, dtype=np.int64)[:, None]
    counts[start : start + len(i)] = (((7 * i + 13 * j + i * j) % 11) < 5).sum(axis=1, dtype=np.int8)
c = counts.astype(np.int64)
print(int((c * c).sum() + 3 * (c >= 5).sum() + c.max()))
