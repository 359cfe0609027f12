⍝ An indexed assignment whose positions and values do not read the array being updated computes them in the loop
⍝ that stores: P[A+I×⍳K]←0 allocates no index vector. The two blocks are P's and the copy that printing makes of
⍝ it (indexing/assign_positions_read_the_array.apl checks positions that read the array). By hand: P has zeros at
⍝ 4 6 8 … 20.
⍝> 1 1 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0 1 0
⍝# mem allocs 2
N←20 ⎕ArgInt 1
P←N⍴1
P[4+2×¯1+⍳1+⌊(N-4)÷2]←0
P
