⍝ A list of strings (or vectors) started from an empty vector and grown with ,← (outside loops, where the number of
⍝ items is known when compiling). Checked by hand: '' has no items, so s is ('ab' 'cde'), shown as a nested vector,
⍝ 2 items; from ⍬, t is the one-item vector ,⊂1 2 (shown after a blank), shape 1; (⊂'ab'),'' is ,⊂'ab'.
⍝>  ab  cde
⍝> 2
⍝>  1 2
⍝> 1
⍝>  ab
s←''
s,←⊂'ab'
s,←⊂'cde'
s
≢s
t←⍬
t,←⊂1 2
t
⍴t
(⊂'ab'),''
