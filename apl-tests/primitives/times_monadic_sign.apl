⍝ monadic × is signum, on ints and doubles
⍝> ¯1 0 1 1 ¯1
×¯5 0 3.2 7 ¯0.1
