⍝ doubly recursive Fibonacci on scalars: 0 1 1 2 3 5 8 13 21 34 55
⍝> 55
⍝> 0 1 1 2 3 5 8 13
fib←{⍵<2:⍵ ⋄ (∇ ⍵-1)+∇ ⍵-2}
fib 10
fib¨0 1 2 3 4 5 6 7
