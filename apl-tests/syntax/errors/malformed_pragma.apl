⍝ aplc: float fast
⍝ A pragma (a comment line starting with "⍝ aplc:") that aplc does not know: an error at its line, not a silent comment.
1+2
