⍝ drawdown: a walk of N steps, step i = ((7i) mod 13) − 6 plus a drift of +1 in the first half of every 3000 steps
⍝ and −1 in the second; its running peak, and the drawdowns (the peak minus the walk). Prints the largest drawdown
⍝ and their sum. Two scans of N elements (+\ and ⌈\, each a parallel scan in chunks) and two reductions.
⍝ Checked by hand: steps 1..3 are 2 ¯4 3, so the walk is 2 ¯2 1, the peak 2 2 2 and the drawdowns 0 4 1: N=3 gives
⍝ 4 5. drawdown.c and drawdown.py print the same for every N tried. ⎕PP←17 prints the sum's every digit (at the full
⍝ size it has 11), so that the runner compares it as an integer.
N←50000000 ⎕ArgInt 1
⎕PP←17
i←⍳N
w←+\(¯6+13|7×i)+¯1+2×1500>3000|i
d←(⌈\w)-w
⎕←(⌈/d),+/d
