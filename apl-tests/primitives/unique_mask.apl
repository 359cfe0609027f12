⍝ ≠⍵ (unique mask): 1 at the first occurrence of each item. Checked by hand: in 'abcab' a b c first occur at 1 2 3;
⍝ in 3 1 3 3 2 at 1 2 5; a scalar is a vector of one; the mask compresses 'mississippi' to its distinct letters.
⍝> 1 1 1 0 0
⍝> 1 1 0 0 1
⍝> 1
⍝> misp
≠'abcab'
≠3 1 3 3 2
≠5
x←'mississippi'
(≠x)/x
