⍝ an atop of +/ and the fork 0=⊢ counts the zeros
⍝> 2
(+/0=⊢)1 0 2 0
