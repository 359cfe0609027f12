⍝ monadic ⍳ with ⎕IO=1; ⍳0 is empty (an empty line)
⍝> 1 2 3 4 5
⍝> 1
⍝>
⍝> 0
⍳5
⍳1
⍳0
≢⍳0
