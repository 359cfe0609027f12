⍝ ⎕UCS: code points of characters and characters of code points. Checked by hand: A is 65, a 97, ⍳ is U+2373 =
⍝ 9075; 72 105 are H and i; upper case by subtracting 32 from the lower-case letters of 'hello world'.
⍝> 65 97 9075
⍝> Hi
⍝> HELLO WORLD
⎕UCS 'Aa⍳'
⎕UCS 72 105
s←'hello world'
⎕UCS (⎕UCS s)-32×s∊'abcdefghijklmnopqrstuvwxyz'
