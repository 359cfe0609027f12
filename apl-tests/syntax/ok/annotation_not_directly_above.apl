⍝: x : int

x←1
