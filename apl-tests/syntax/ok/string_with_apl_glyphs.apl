'⍴⍳ ⍝ not a comment ⋄ not a separator'
