⍝ ⍉A, 1↓A, ¯1↓A, A[3;] and ⌽A read A's block through another LMAD: they allocate nothing and copy nothing.
⍝ A is a real block (its fill and the store of 100 cannot be recomputed), the only allocation of the program.
⍝ A is 100 2 3 4 / 5 6 7 8 / 9 10 11 12, whose items sum to 78-1+100 = 177.
⍝ +/,⍉A and +/,⌽A hold the same items: 177. 1↓A is rows 2 and 3: 26+42 = 68. ¯1↓A is rows 1 and 2: 109+26 = 135.
⍝ A[3;] is 9 10 11 12: 42.
⍝> 177
⍝> 68
⍝> 135
⍝> 42
⍝> 177
⍝# mem allocs 1
⍝# mem copies 0
⍝# mem loops 6
A←3 4⍴⍳12
A[1;1]←100
+/,⍉A
+/,1↓A
+/,¯1↓A
+/A[3;]
+/,⌽A
