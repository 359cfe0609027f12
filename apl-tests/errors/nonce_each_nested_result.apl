⍝ each with a function returning vectors would give a nested array
⍝! NONCE ERROR
{⍵ ⍵}¨1 2
