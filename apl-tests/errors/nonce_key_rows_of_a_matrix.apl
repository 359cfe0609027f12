⍝ keys that are the rows of a matrix are not supported yet
⍝! NONCE ERROR at 3:1
{≢⍵}⌸2 2⍴1 2 1 2
