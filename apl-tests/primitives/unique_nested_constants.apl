⍝ ∪ of a nested vector whose items are known when compiling keeps the first of each group of matching items
⍝ (numbers match as numbers: 1 and 1.0). Checked by hand: to be or not; the words of the sentence are 8, of which
⍝ the, cat, and, hat, bat are distinct.
⍝>  to  be  or  not
⍝> 8
⍝>  the  cat  and  hat  bat
⍝> 5
⍝> 1  2 3
∪'to' 'be' 'or' 'not' 'to' 'be'
s←'the cat and the hat and the bat'
w←(' '≠s)⊆s
≢w
∪w
≢∪w
∪1 (2 3) 1.0 (2 3)
