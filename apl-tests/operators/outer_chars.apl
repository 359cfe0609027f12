⍝ ∘.= on characters: which letters of 'ab' occur where in 'abca'
⍝> 1 0 0 1
⍝> 0 1 0 0
'ab'∘.='abca'
