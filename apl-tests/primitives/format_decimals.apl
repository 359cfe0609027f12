⍝ d⍕⍵ and 0 d⍕⍵ (prelude format_decimals): d decimals and no width, each column as wide as its widest item needs
⍝ plus one blank on its left, as Dyalog lays columns out. Checked by hand: 3.14159 with 2 decimals is 3.14 after a
⍝ blank, a vector of 5 characters; in a vector each item is its own column (1.00 10.00 100.00); with no decimals
⍝ there is no point, 3.7 is 4 and ¯0.4 rounds to 0 without a minus; a matrix's columns are 4, 5 and 6 wide
⍝ (1.25 rounds half up to 1.3, ¯0.04 to 0.0); 0 2⍕ is 2⍕; an empty vector gives an empty line; the blank makes
⍝ two after "Total:"; 0.001 0.002 0.003 all round to 0.00; an int 42 gets its decimals.
⍝>  3.14
⍝> 5
⍝>  1.00 10.00 100.00
⍝>  4 ¯12 0
⍝>  1.3 ¯3.0 100.0
⍝>  7.0  0.0   0.0
⍝>  3.14 ¯2.50
⍝>
⍝> Total:  1234.50
⍝>  0.00 0.00 0.00
⍝>  42.000
2⍕3.14159
⍴2⍕3.14159
2⍕1 10 100
0⍕3.7 ¯12 ¯0.4
1⍕2 3⍴1.25 ¯3 100.04 7 0 ¯0.04
0 2⍕3.14159 ¯2.5
3⍕⍳0
'Total: ',2⍕1234.5
2⍕0.001×⍳3
3⍕42
