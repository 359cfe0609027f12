⍝ an anonymous monadic dfn applied to a scalar and to a vector
⍝> 6
⍝> 2 3 4
{⍵+1}5
{⍵+1}1 2 3
