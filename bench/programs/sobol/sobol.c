/* sobol: Monte-Carlo estimate of pi from the first N points (indices 1..N) of the 2-dimensional Sobol sequence with
 * D=26 bits: dimension 1 has direction numbers v_k = 2^-k, dimension 2 those of the primitive polynomial x+1
 * (m_1 = 1, m_k = m_{k-1} xor 2 m_{k-1}). Point i is the xor of the v_k for the bits k set in i (the direct form, not
 * the Gray-code order, so that every version produces the same points). Prints 4*(points with x^2+y^2<=1)/N.
 * Checked by hand: the first 8 points are (1/2,1/2) (1/4,3/4) (3/4,1/4) (1/8,5/8) (5/8,1/8) (3/8,3/8) (7/8,7/8)
 * (1/16,15/16), worked on paper; all but the 7th are inside, so "sobol 4" prints 4 and "sobol 8" prints 3.5.
 * With 26 bits all arithmetic is exact, so sobol.py prints the same digits at every size.
 * Usage: sobol [N]   (default N = 10000000, at most 2^26) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define D 26

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 10000000;
    uint32_t v1[D], v2[D];
    uint32_t m = 1;
    for (int k = 1; k <= D; k++) {
        if (k > 1) m = m ^ (m << 1);
        v1[k - 1] = 1u << (D - k);
        v2[k - 1] = m << (D - k);
    }
    const double scale = 1.0 / (double)(1u << D);
    long inside = 0;
    for (long i = 1; i <= n; i++) {
        uint32_t xi = 0, yi = 0;
        for (int k = 0; k < D; k++) {
            if ((i >> k) & 1) {
                xi ^= v1[k];
                yi ^= v2[k];
            }
        }
        double x = xi * scale, y = yi * scale;
        inside += x * x + y * y <= 1.0;
    }
    printf("%.10g\n", 4.0 * ((double)inside / (double)n));
    return 0;
}
