⍝ In a strand with other items, adjacent numbers are items one by one: 'name' 1 2 3 has four items (Dyalog:
⍝ ≢'name' 1 2 3 is 4), while a parenthesised numeric vector stays one item. Items are picked with ⍵[i] and i⊃⍵
⍝ inside dfns and operators. ⍵[i] keeps the item enclosed, as in Dyalog: ('name' 10 20 30)[1] is ⊂'name', shown
⍝ as a nested scalar, after a blank; i⊃⍵ discloses it.
⍝>  name
⍝> 30
⍝> 10
⍝> 1 2
⍝> ab
⍝> 5 1 2
⍝> ¯8
⍝> 17
f←{⍵[1]}
f 'name' 10 20 30
g←{4⊃⍵}
g 'name' 10 20 30
2⊃'name' 10 20 30
h←{1⊃⍵}
h (1 2) 'ab'
3⊃1 2 'ab'
x←5
x 1 2
op←{⍺⍺ ⍵[3]}
-op 'k' 7 8 9
add←{(2⊃⍵)+3⊃⍵}
add 'sum' 8 9
