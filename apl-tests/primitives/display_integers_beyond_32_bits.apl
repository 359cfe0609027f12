⍝ Dyalog holds integers in at most 32 bits and a larger one as a double, so it prints it as a double under ⎕PP; an
⍝ array with one such element is an array of doubles. Checked by hand: +/⍳1000000 is 500000500000, 5.000005E11 at
⍝ ⎕PP 10; ×/⍳15 is 1307674368000, 1.307674368E12; 2147483647 (the largest 32-bit integer) prints in full, and so does
⍝ 2147483648 (a double of ten digits, fixed form); in a vector beside 1; in a matrix whose second column has a
⍝ number in scaled form, that column is all in scaled form (2E0); ⍕ gives the same text; at ⎕PP 17 the twelve
⍝ digits print in full.
⍝> 5.000005E11
⍝> 1.307674368E12
⍝> 2147483647
⍝> 2147483648
⍝> 1 5.000005E11
⍝> 1 2E0
⍝> 3 5.000005E11
⍝> 11
⍝> 500000500000
n←1000000 ⎕ArgInt 1
+/⍳n
×/⍳15
2147483647
2147483648
1,+/⍳n
2 2⍴1 2 3,+/⍳n
⍴⍕+/⍳n
⎕PP←17
+/⍳n
