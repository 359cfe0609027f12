⍝ indexed assignment into a character vector
⍝> Jello
s←'hello'
s[1]←'J'
s
