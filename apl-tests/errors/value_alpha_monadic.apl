⍝ ⍺ used in a dfn that is called monadically and has no default for ⍺
⍝! VALUE ERROR
{⍺+⍵}3
