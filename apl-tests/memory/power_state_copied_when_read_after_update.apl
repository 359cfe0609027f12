⍝ A ⍣ step that updates a copy of its state and then reads the old state too (v+⍵) must keep the copy: the update
⍝ cannot go into the state's block. From 1 2 3: v is 0 0 3, v+⍵ is 1 2 6; then v is 0 0 6, v+⍵ is 1 2 12.
⍝> 1 2 12
⍝# mem copies 1
n←3 ⎕ArgInt 1
k←2 ⎕ArgInt 2
{v←⍵ ⋄ v[1 2]←0 ⋄ v+⍵}⍣k⊢⍳n
