⍝ ⍳ of a count whose result cannot be allocated (10^12 integers) is WS FULL on every backend.
⍝! WS FULL
⌽⍳1e12
