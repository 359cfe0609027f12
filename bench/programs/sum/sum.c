/* sum: the sum of 1..N in 64-bit integers.
 * Checked by hand: the closed form N(N+1)/2 gives 55 for N=10 and 5000000050000000 for N=1e8, which this program and
 * sum.py print. Note that gcc may replace this loop by the closed form; that is what straightforward C gets.
 * Usage: sum [N]   (default N = 100000000) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 100000000;
    long sum = 0;
    for (long i = 1; i <= n; i++) sum += i;
    printf("%ld\n", sum);
    return 0;
}
