⍝ d ⎕ArgInt i and d ⎕ArgDouble i: program argument i (from 1) read at run time, or d when the program got fewer than
⍝ i arguments. The corpus runs programs without arguments, so every read is its default; what is checked is that the
⍝ value is not a compile-time constant yet computes like one on every backend (tests/cli.rs passes real arguments).
⍝ Worked by hand: n is 10, +/⍳10 is 55; x is 0.25 and x×4 is 1; a bool default of an int read is widened (1);
⍝ an int default of a double read is widened too (3, printed 3); n⍴2 has n elements, their sum is 20.
⍝> 55
⍝> 1
⍝> 1
⍝> 3
⍝> 20
⍝# loops parallel-reductions 2
n←10 ⎕ArgInt 1
x←0.25 ⎕ArgDouble 2
+/⍳n
x×4
1 ⎕ArgInt 3
3 ⎕ArgDouble 3
+/n⍴2
