/* mandelbrot: escape-time iteration z = z^2 + c for every c on an M x M grid over [-2,0.5) x [-1.25,1.25), K
 * iterations, where a point stops moving once |z|^2 > 4; prints the number of points still inside (|z|^2 <= 4).
 * Checked by hand: for M=2 the c values are -2-1.25i, -0.75-1.25i, -2, -0.75; worked on paper, K=1 leaves 3 inside
 * (|c|^2 = 5.5625 is out), K=2 still 3 (-0.75-1.25i is at -1.75+0.625i), K=3 leaves 2 (it escapes to
 * 1.921875-3.4375i; -2 sits at 2, -0.75 stays small). mandelbrot.py prints the same counts at every size.
 * Compiled with -ffp-contract=off like every baseline, so no fused multiply-add changes a borderline point.
 * Usage: mandelbrot [M [K]]   (defaults M = 512, K = 100) */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    long m = argc > 1 ? atol(argv[1]) : 512;
    long iterations = argc > 2 ? atol(argv[2]) : 100;
    long count = 0;
    for (long row = 0; row < m; row++) {
        double ci = -1.25 + 2.5 * ((double)row / (double)m);
        for (long col = 0; col < m; col++) {
            double cr = -2.0 + 2.5 * ((double)col / (double)m);
            double zr = 0.0, zi = 0.0;
            for (long k = 0; k < iterations; k++) {
                if (zr * zr + zi * zi > 4.0) break; /* escaped: the point stops moving */
                double next_r = cr + (zr * zr - zi * zi);
                zi = ci + 2.0 * (zr * zi);
                zr = next_r;
            }
            count += zr * zr + zi * zi <= 4.0;
        }
    }
    printf("%ld\n", count);
    return 0;
}
