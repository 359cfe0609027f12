⍝ d⍕ formats numbers, not characters
⍝! DOMAIN ERROR at 3:2
2⍕'abc'
