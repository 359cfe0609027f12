⍝ A name assigned inside a statement is not yet defined for what stands to its right: APL evaluates right to left,
⍝ so t on the right of (t←3) is read before the assignment runs.
⍝! VALUE ERROR
(t ← 3) + t
