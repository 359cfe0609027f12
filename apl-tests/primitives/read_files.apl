⍝ ⎕ReadIntVecFile and ⎕ReadDoubleVecFile read the whitespace-separated numbers of a text file (¯ or - for a
⍝ negative), ⎕ReadFile its characters. Names are relative to the working directory (the harness runs in the
⍝ repository root). ints.txt holds 3 1 4 / 1 5 ¯9 / 26 (sum 31), doubles.txt 2.5 -0.125 / 1e3 (sum 1002.375),
⍝ text.txt the 12 characters of "hello, world" with no newline.
⍝> 3 1 4 1 5 ¯9 26
⍝> 31
⍝> 2.5 ¯0.125 1000
⍝> 1002.375
⍝> 12
⍝> hello, world
⍝> 3
v←⎕ReadIntVecFile 'apl-tests/data/ints.txt'
v
+/v
d←⎕ReadDoubleVecFile 'apl-tests/data/doubles.txt'
d
+/d
t←⎕ReadFile 'apl-tests/data/text.txt'
⍴t
t
+/t='l'
