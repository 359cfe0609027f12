⍝ enclose makes a nested array, which aplc does not support
⍝! NONCE ERROR
⊂1 2
