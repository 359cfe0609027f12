"""lookup: N keys k_i = 7919i mod 1000003 sorted, and N queries q_i = 104729i mod 1000003 looked up among the keys.

Prints the middle sorted key, the sum of the 1-based positions of the queries among the keys (N+1 when absent) and the
number found, as lookup.apl (N=3 gives 15838 12 0). As a NumPy user would write it: np.sort, a stable argsort and
searchsorted for the positions, np.isin for membership.
Usage: lookup.py [N]  (default N = 1000000).
"""
import sys

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
i = np.arange(1, N + 1, dtype=np.int64)
k = (7919 * i) % 1000003
q = (104729 * i) % 1000003
s = np.sort(k)
order = np.argsort(k, kind="stable")
sorted_keys = k[order]
at = np.minimum(np.searchsorted(sorted_keys, q), N - 1)
found = sorted_keys[at] == q
positions = np.where(found, order[at] + 1, N + 1)
print(int(s[(N + 1) // 2 - 1]), int(positions.sum()), int(np.isin(q, k).sum()))
