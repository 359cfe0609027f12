⍝ Indexed assignments whose positions or values read the array being assigned see its old elements, and a
⍝ position given twice keeps its last value. By hand: V[1 1 1]←5 6 7 sets V[1] to 7; V[2 1]←V[1 2] swaps the first
⍝ two (2 7 3 …); V[V[1 2]]←0 zeroes items 2 and 7 (V[1 2] before the store); V[⌽⍳5]←V reverses ⍳5.
⍝> 7 2 3 4 5 6 7 8 9 10
⍝> 2 7 3 4 5 6 7 8 9 10
⍝> 2 0 3 4 5 6 0 8 9 10
⍝> 5 4 3 2 1
V←⍳10
V[1+0×⍳3]←5 6 7
V
V[2 1]←V[1 2]
V
V[V[1 2]]←0
V
V←⍳5
V[⌽⍳5]←V
V
