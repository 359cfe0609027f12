⍝ A strand is shown as Dyalog shows a nested vector: the items side by side, each as it is shown alone, aligned at
⍝ the top; one blank between two scalars, two where either neighbour is not a scalar, and one before a first item
⍝ that is not a scalar (issue #19 item 12's example ` 1 2  3 4 5`). Worked by hand from that rule:
⍝ - (1 2) (3 4 5): blank, "1 2", two blanks, "3 4 5".
⍝ - 'ab' 'cde': blank, "ab", two blanks, "cde".
⍝ - 1 (2 3): "1", two blanks, "2 3"; 1 (2 3) 4 adds two blanks and "4".
⍝ - 'name' 1 2 3 is four items: blank, "name", two blanks, then 1, 2 and 3 as scalars.
⍝ - numbers follow ⎕PP: (÷3) (1.5 2) with ⎕PP←3 is "0.333", two blanks, "1.5 2".
⍝ - a matrix item makes two lines: (1 2)(2 2⍴3) is blank, "1 2", two blanks, "3 3", and below the vector's
⍝   (blank) place "3 3"; (2 2⍴⍳4) 5 is blank, "1 2", two blanks, "5" over blank, "3 4".
⍝ - a strand inside a strand is shown the same way in its place: 1 (2 (3 4)) is "1", two blanks, then the inner
⍝   "2", two blanks, "3 4".
⍝ - an item's rows may be known only when running: (n n⍴⍳9) 'x' (⍳n) with n=3.
⍝>  1 2  3 4 5
⍝>  ab  cde
⍝> 1  2 3
⍝> 1  2 3  4
⍝>  name  1 2 3
⍝> 0.333  1.5 2
⍝>  1 2  3 3
⍝>       3 3
⍝>  1 2  5
⍝>  3 4
⍝> 1  2  3 4
⍝>  1 2 3  x  1 2 3
⍝>  4 5 6
⍝>  7 8 9
(1 2) (3 4 5)
'ab' 'cde'
x←1 (2 3)
x
1 (2 3) 4
'name' 1 2 3
⎕PP←3
(÷3) (1.5 2)
(1 2)(2 2⍴3)
(2 2⍴⍳4) 5
1 (2 (3 4))
n←3 ⎕ArgInt 1
(n n⍴⍳9) 'x' (⍳n)
