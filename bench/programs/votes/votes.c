/* votes: N voters answer 8 yes/no questions; voter i says yes to question j when (7i+13j+ij) mod 11 < 5. Prints
 * Σc² + 3×(voters with c≥5) + max c over the voters' yes counts c.
 * Written as a performance-minded C programmer would: one pass, no array of counts, a branch-free inner loop over the
 * 8 questions that gcc unrolls (the residue by a constant becomes a multiplication).
 * Checked by hand: N=1 gives 12 (c=3), N=2 gives 29 (c=3, 4), as votes.apl's header works out.
 * Usage: votes [N]   (default N = 10000000) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    long squares = 0, majorities = 0, largest = 0;
    for (long i = 1; i <= n; i++) {
        long c = 0;
        for (long j = 1; j <= 8; j++) c += (7 * i + 13 * j + i * j) % 11 < 5;
        squares += c * c;
        majorities += c >= 5;
        largest = c > largest ? c : largest;
    }
    printf("%ld\n", squares + 3 * majorities + largest);
    return 0;
}
