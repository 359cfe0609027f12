⍝ A strand of scalars and vectors is shown as Dyalog shows a nested vector: on one line, a scalar item as itself, a
⍝ vector item with a blank before it, the items separated by one blank (issue #19 item 12's example ` 1 2  3 4 5`).
⍝ Worked by hand from that rule:
⍝ - (1 2) (3 4 5): blank, "1 2", separator, blank, "3 4 5".
⍝ - 'ab' 'cde': blank, "ab", separator, blank, "cde".
⍝ - 1 (2 3): "1", separator, blank, "2 3".
⍝ - 'name' 1 2 3 is four items: blank, "name", then 1, 2 and 3 as scalars.
⍝ - numbers follow ⎕PP: (÷3) (1.5 2) with ⎕PP←3 is "0.333", separator, blank, "1.5 2".
⍝ - a strand holding a matrix is shown an item per line.
⍝ - a strand inside a strand is its own line after a blank: 1 (2 (3 4)) is "1", separator, blank, then the inner
⍝   "2", separator, blank, "3 4".
⍝>  1 2  3 4 5
⍝>  ab  cde
⍝> 1  2 3
⍝>  name 1 2 3
⍝> 0.333  1.5 2
⍝> 1 2
⍝> 3 3
⍝> 3 3
⍝> 1  2  3 4
(1 2) (3 4 5)
'ab' 'cde'
x←1 (2 3)
x
'name' 1 2 3
⎕PP←3
(÷3) (1.5 2)
(1 2)(2 2⍴3)
1 (2 (3 4))
