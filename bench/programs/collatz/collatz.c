/* collatz: the start below N+1 with the longest Collatz sequence, and its number of steps (see collatz.apl). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    long best = 1, best_steps = 0;
    for (long start = 1; start <= n; start++) {
        long x = start, steps = 0;
        while (x != 1) {
            x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
            steps++;
        }
        if (steps > best_steps) {
            best = start;
            best_steps = steps;
        }
    }
    printf("%ld %ld\n", best, best_steps);
    return 0;
}
