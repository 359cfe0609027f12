⍝ a b←v is the multiple assignment (a b)←v when the names before the target are variables or undefined (Dyalog);
⍝ a function name there is applied to the assignment's value instead. Checked by hand: a b←3 4 in the dfn gives 7;
⍝ lo hi←10 20 sets both (an existing lo included): 10; p q r←5 gives each 5: 15; g s←3 applies g to (s←3): 6, and
⍝ s is 3; 2×u v←1 2 doubles the value assigned: 2 4, and u v is 1 2. Assignments print nothing.
⍝> 7
⍝> 10
⍝> 15
⍝> 6
⍝> 3
⍝> 2 4
⍝> 1 2
f←{a←0 ⋄ a b←⍵ ⋄ a+b}
f 3 4
lo←1
lo hi←10 20
hi-lo
p q r←5
p+q+r
g←{⍵×2}
g s←3
s
x←2×u v←1 2
x
u v
