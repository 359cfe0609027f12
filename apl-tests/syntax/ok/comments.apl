⍝ a full-line comment
1+2 ⍝ trailing comment
⍝ last
