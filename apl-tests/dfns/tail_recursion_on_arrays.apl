⍝ Tail recursion whose array argument changes length (issue #14, items 1 and 7): the loop a tail-recursive dfn
⍝ becomes has the array in its state, in a block that each step replaces, on every backend.
⍝ f drops the first item until one is left: ⍳5 leaves 5.
⍝> 5
⍝ g adds the items one by one into ⍺: +/⍳100 is 5050.
⍝> 5050
⍝ h doubles its argument until it is longer than 20: 3, 6, 12, 24 items.
⍝> 24
⍝ c counts the items of a vector of 10000 by dropping one per call: 10000 steps, no stack.
⍝> 10000
⍝ r reverses a character vector by moving its last item to the result: 'stressed' becomes 'desserts'.
⍝> desserts
f←{1=≢⍵:⍵ ⋄ ∇ 1↓⍵}
⎕←f ⍳5
g←{⍺←0 ⋄ 0=≢⍵:⍺ ⋄ (⍺+⊃⍵) ∇ 1↓⍵}
⎕←g ⍳100
h←{(≢⍵)>20:⍵ ⋄ ∇ ⍵,⍵}
⎕←≢h 1 2 3
c←{⍺←0 ⋄ 0=≢⍵:⍺ ⋄ (⍺+1) ∇ 1↓⍵}
⎕←c ⍳10000
r←{⍺←'' ⋄ 0=≢⍵:⍺ ⋄ (⍺,¯1↑⍵) ∇ ¯1↓⍵}
⎕←r 'stressed'
