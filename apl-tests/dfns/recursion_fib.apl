⍝ Doubly recursive Fibonacci on a run-time argument: neither unfolded on constants nor a tail call, so the dfn
⍝ becomes a recursive function. Worked by hand: F0=0, F1=1, Fn = F(n-1)+F(n-2): 0 1 1 2 3 5 8 13 21 34 55 89 144
⍝ 233 377 610 987 1597 2584 4181 6765, so fib 20 is 6765 and fib 25 is 75025 (8 × 6765 + ... : F25 = F24 + F23 =
⍝ 46368 + 28657). Applied to each of ⍳12: the 12 numbers from F1 to F12.
⍝> 6765
⍝> 75025
⍝> 1 1 2 3 5 8 13 21 34 55 89 144
n←20 ⎕ArgInt 1
fib←{⍵<2:⍵ ⋄ (fib ⍵-1)+fib ⍵-2}
fib n
fib n+5
fib¨⍳n-8
