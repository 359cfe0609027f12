⍝ Literal vectors of 16 elements or more are copied from a constant array in native code (not stored element by
⍝ element); the values must be the same for ints, doubles, booleans and characters, whatever the order of use.
⍝ x sorted is 1..20, and Σi² for i in 1..20 is 20×21×41÷6 = 2870; Σ(i-0.5) is 210-10 = 200; the ones of b are at 1 3 4 7 9 10 11 15
⍝ 17 18 20 (11 of them, summing to 115); 'the quick brown fox jumps' has two o's and ends in s.
⍝> 2870
⍝> 200
⍝> 20 19 18
⍝> 11 115
⍝> 2
⍝> s
x←20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1
+/x[⍋x]×⍳20
y←19.5 18.5 17.5 16.5 15.5 14.5 13.5 12.5 11.5 10.5 9.5 8.5 7.5 6.5 5.5 4.5 3.5 2.5 1.5 0.5
+/y[⍋y]
3↑x[⍒x]
b←1 0 1 1 0 0 1 0 1 1 1 0 0 0 1 0 1 1 0 1
(+/b[⍒⍳20]),+/b×⍳20
s←'the quick brown fox jumps'
+/s[⍋s]='o'
(⌽s)[1]
