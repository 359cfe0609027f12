⍝ Recursion that is not a tail call, on run-time values, compiled as recursive functions. Worked by hand with n=6:
⍝ - depth counts the calls down to 0 by name: 1+1+...+0 = 6; on 5000 it nests 5000 calls deep: 5000.
⍝ - tri sums the triangular numbers with an array inside the body: +/⍳k for k = 6 5 4 3 2 1 is
⍝   21+15+10+6+3+1 = 56.
⍝ - half halves 1.5 five times (a double result): 1.5÷32 = 0.046875.
⍝ - parity steps down by 2 to a char: 7 is odd, 'o'.
⍝ - pow gets ⍺ from its default 2 when called monadically: 2*6 = 64; 3 pow 6 is 729.
⍝ - deep reads k (60) from the script, a scalar passed along to every call: 60+6 = 66.
⍝ - noisy prints ⍵ on the way down (3 2 1), then its value 3.
⍝ - a boolean result: allpos is 1 when every number from ⍵ down to 1 is positive, always here.
⍝> 6
⍝> 5000
⍝> 56
⍝> 0.046875
⍝> o
⍝> 64
⍝> 729
⍝> 66
⍝> 3
⍝> 2
⍝> 1
⍝> 3
⍝> 1
n←6 ⎕ArgInt 1
depth←{⍵=0:0 ⋄ 1+depth ⍵-1}
depth n
depth 5000+0×n
tri←{⍵=0:0 ⋄ (+/⍳⍵)+∇ ⍵-1}
tri n
half←{⍵≤1:1.5 ⋄ 0.5×∇ ⍵-1}
half n
parity←{⍵=0:'e' ⋄ ⍵=1:'o' ⋄ ∇ ⍵-2}
parity n+1
pow←{⍺←2 ⋄ ⍵=0:1 ⋄ ⍺×⍺ ∇ ⍵-1}
pow n
3 pow n
k←n×10
deep←{⍵=0:k ⋄ 1+∇ ⍵-1}
deep n
noisy←{⍵=0:0 ⋄ ⎕←⍵ ⋄ 1+∇ ⍵-1}
noisy n-3
allpos←{⍵=0:1 ⋄ (⍵>0)∧∇ ⍵-1}
allpos n
