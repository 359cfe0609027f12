⍝ a dyadic function with no right argument
⍝! SYNTAX ERROR
1 2+
