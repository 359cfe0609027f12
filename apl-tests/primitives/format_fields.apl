⍝ w d⍕⍵ (prelude format_fields): each number with d decimals, right-aligned in w characters, a high minus before a
⍝ negative one, asterisks when it does not fit. Checked by hand: 3.14159 and 2.5 with 2 decimals in 8 places;
⍝ ¯2.26 rounds to ¯2.3 and 10 is 10.0, in 6 places; no decimals: 3.7 is 4 and ¯12 stays; 123.4 needs 5 places,
⍝ not 3; a matrix's rows of fields (4.567 rounds to 4.57); the length of three fields of 8; an integer 42; 0.5 with
⍝ a units digit 0; ¯0.001 rounds to 0.00, without a minus; widths too narrow for the decimals alone are stars.
⍝>     3.14    2.50
⍝>   ¯2.3  10.0
⍝>    4 ¯12
⍝> ***
⍝>  1.00 2.00
⍝>  3.00 4.57
⍝> 24
⍝>  42.00
⍝> 0.500
⍝>  0.00
⍝> **
⍝> ***
8 2⍕3.14159 2.5
6 1⍕¯2.26 10
4 0⍕3.7 ¯12
3 1⍕123.4
5 2⍕2 2⍴1 2 3 4.567
⍴8 2⍕⍳3
6 2⍕42
5 3⍕0.5
5 2⍕¯0.001
2 3⍕5
1 3⍕5 6 7
