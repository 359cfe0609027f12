/* easter: Easter Sunday (Gregorian computus, the anonymous "Meeus/Jones/Butcher" algorithm) for the years 1..Y, the
 * whole list repeated R times; prints the sum of month*100+day over all R*Y dates.
 * Checked by hand: year 1 gives a=1 b=0 c=1 d=e=f=g=0 h=4 i=0 k=1 l=6 m=0, t=124, so April 1 and `easter 1 1`
 * prints 401; the same function gives 2000-04-23, 2024-03-31 and 2025-04-20, the known dates, and over 1583..3000 it
 * agrees with python-dateutil's easter() (checked once, see bench/README.md). easter.py prints the same at all sizes.
 * Usage: easter [Y [R]]   (defaults Y = 3000, R = 300) */
#include <stdio.h>
#include <stdlib.h>

/* Month*100+day of Easter Sunday in the given (proleptic Gregorian) year. */
static long easter_code(long year) {
    long a = year % 19, b = year / 100, c = year % 100;
    long d = b / 4, e = b % 4;
    long f = (b + 8) / 25;
    long g = (b - f + 1) / 3;
    long h = (19 * a + b - d - g + 15) % 30;
    long i = c / 4, k = c % 4;
    long l = (32 + 2 * e + 2 * i - h - k) % 7;
    long m = (a + 11 * h + 22 * l) / 451;
    long t = h + l - 7 * m + 114;
    return 100 * (t / 31) + (t % 31 + 1);
}

int main(int argc, char **argv) {
    long years = argc > 1 ? atol(argv[1]) : 3000;
    long repeats = argc > 2 ? atol(argv[2]) : 300;
    long sum = 0;
    /* One pass over the R*Y-element vector (R×Y)⍴⍳Y, as the APL program does. */
    for (long index = 0; index < repeats * years; index++) {
        sum += easter_code(index % years + 1);
    }
    printf("%ld\n", sum);
    return 0;
}
