⍝ Monadic ⍕ of a nested vector (or a nested scalar) is the text that shows it: one line, or a character matrix when
⍝ an item is a matrix. Checked by hand from the display rule (display_nested_vectors.apl): ' Total  42' has 10
⍝ characters; ⊂1 2 shows after a blank; 'Sum: ' then ' ab  1 2'; 'ab' beside a 2×2 matrix is 2 rows of 8.
⍝>  Total  42
⍝> 10
⍝>  1 2
⍝> Sum:  ab  1 2
⍝> 2 8
⍕'Total' 42
⍴⍕'Total' 42
⍕⊂1 2
'Sum: ',⍕'ab' (1 2)
⍴⍕'ab' (2 2⍴⍳4)
