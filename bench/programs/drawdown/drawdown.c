/* drawdown: a walk of N steps, step i = ((7i) mod 13) - 6 plus a drift of +1 in the first half of every 3000 steps
 * and -1 in the second; prints the largest drawdown (running peak minus walk) and the sum of the drawdowns.
 * Written as a performance-minded C programmer would: one pass, no arrays, the walk, the peak and both statistics
 * carried in registers (a scan has no vector form that gcc finds, so this is the sequential optimum).
 * Checked by hand: N=3 gives "4 5" (see drawdown.apl).
 * Usage: drawdown [N]   (default N = 50000000) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 50000000;
    long walk = 0, peak = 0, largest = 0, total = 0;
    for (long i = 1; i <= n; i++) {
        walk += (7 * i) % 13 - 6 + (i % 3000 < 1500 ? 1 : -1);
        peak = (i == 1 || walk > peak) ? walk : peak;
        long drawdown = peak - walk;
        largest = drawdown > largest ? drawdown : largest;
        total += drawdown;
    }
    printf("%ld %ld\n", largest, total);
    return 0;
}
