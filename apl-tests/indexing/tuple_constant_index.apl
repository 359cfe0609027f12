⍝ a mixed strand indexed with constants; only simple scalar items are used
⍝> 5
⍝> 40
t←1 (2 3) 4
t[1]+t[3]
t[3]×10
