⍝ ∧.= tests rows of a character matrix for equality with a vector
⍝> 1
⍝> 0
⍝> 1 0 1
'abc'∧.='abc'
'abc'∧.='abd'
(3 2⍴'abcdab')∧.='ab'
