⍝ ⍕ of doubles uses the display form: 10 significant digits, no trailing zeros
⍝> 0.5 2 0.3333333333
⍝> 18
⍕0.5 2,÷3
≢⍕0.5 2,÷3
