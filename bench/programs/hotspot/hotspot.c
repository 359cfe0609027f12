/* hotspot: the Rodinia HotSpot thermal simulation (chip 16 mm x 16 mm x 0.5 mm, Rodinia's constants), an explicit
 * 5-point stencil on an N x N grid for S steps, written as Rodinia writes it: interior, edges and corners, where an
 * edge cell lacks the terms of its missing neighbours. Inputs: temperature 320+0.5*((7i+13j) mod 17) K, power
 * 0.001*(1+(ij mod 13)) W for i,j = 1..N. Prints the sum of the final temperatures.
 * Checked by hand: for N=1 S=1 the single cell has no neighbours, T = 320+0.5*(20 mod 17) = 321.5, P = 0.002,
 * Cap = 0.5*1.75e6*0.0005*0.016^2 = 0.112, step = 0.001/(3e6/437.5) = 1.4583e-7, Rz = 0.0005/(100*0.016^2) =
 * 0.01953125, so T' = 321.5 + (1.4583e-7/0.112)*(0.002+(80-321.5)/Rz) = 321.5 - 0.0161 = 321.4839 (worked on paper),
 * which this program prints for "hotspot 1 1"; hotspot.py agrees at all sizes.
 * Usage: hotspot [N [S]]   (defaults N = 512, S = 360) */
#include <stdio.h>
#include <stdlib.h>

#define MAX_PD 3.0e6
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5
#define T_CHIP 0.0005
#define CHIP_HEIGHT 0.016
#define CHIP_WIDTH 0.016
#define AMB_TEMP 80.0

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 512;
    long steps = argc > 2 ? atol(argv[2]) : 360;
    double *temp = malloc(n * n * sizeof(double)), *result = malloc(n * n * sizeof(double));
    double *power = malloc(n * n * sizeof(double));
    if (!temp || !result || !power) return 1;
    for (long i = 1; i <= n; i++)
        for (long j = 1; j <= n; j++) {
            temp[(i - 1) * n + j - 1] = 320.0 + 0.5 * (double)((7 * i + 13 * j) % 17);
            power[(i - 1) * n + j - 1] = 0.001 * (double)(1 + (i * j) % 13);
        }
    double grid_height = CHIP_HEIGHT / n, grid_width = CHIP_WIDTH / n;
    double cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * grid_width * grid_height;
    double rx = grid_width / (2.0 * K_SI * T_CHIP * grid_height);
    double ry = grid_height / (2.0 * K_SI * T_CHIP * grid_width);
    double rz = T_CHIP / (K_SI * grid_height * grid_width);
    double max_slope = MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI);
    double step_div_cap = (PRECISION / max_slope) / cap;

    for (long s = 0; s < steps; s++) {
        for (long r = 0; r < n; r++) {
            for (long c = 0; c < n; c++) {
                long k = r * n + c;
                double t = temp[k];
                /* A missing neighbour contributes nothing: use the cell itself, so its difference is 0. */
                double up = r > 0 ? temp[k - n] : t, down = r < n - 1 ? temp[k + n] : t;
                double left = c > 0 ? temp[k - 1] : t, right = c < n - 1 ? temp[k + 1] : t;
                double delta = step_div_cap * (power[k] + (up + down - 2.0 * t) / ry + (left + right - 2.0 * t) / rx +
                                               (AMB_TEMP - t) / rz);
                result[k] = t + delta;
            }
        }
        double *swap = temp;
        temp = result;
        result = swap;
    }
    double sum = 0.0;
    for (long k = 0; k < n * n; k++) sum += temp[k];
    printf("%.10g\n", sum);
    free(temp);
    free(result);
    free(power);
    return 0;
}
