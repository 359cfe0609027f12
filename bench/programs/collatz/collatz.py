"""collatz: the start below N+1 with the longest Collatz sequence, and its number of steps (see collatz.apl).

Every start at once: each step advances the sequences that have not reached 1 yet (a mask), as NumPy is used for
such a loop."""
import sys

import numpy as np


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000000
    x = np.arange(1, n + 1, dtype=np.int64)
    steps = np.zeros(n, dtype=np.int64)
    active = np.nonzero(x != 1)[0]
    values = x[active]
    while active.size:
        even = values % 2 == 0
        values = np.where(even, values // 2, 3 * values + 1)
        steps[active] += 1
        going = values != 1
        active = active[going]
        values = values[going]
    best = int(np.argmax(steps))
    print(best + 1, int(steps[best]))


main()
