⍝ monadic ⍕ turns numbers into character vectors in display form
⍝> 123
⍝> 3
⍝> x=42
⍝> 5
⍝> ¯5
⍝> 3
⍕123
≢⍕123
'x=',⍕42
≢⍕1 2 3
⍕¯5
≢⍕2.5
