⍝ sobol: Monte-Carlo estimate of π from the first N points (indices 1..N) of the 2-dimensional Sobol sequence, with
⍝ D=26 bits: dimension 1 has direction numbers v_k = 2^-k, dimension 2 those of the primitive polynomial x+1
⍝ (m = 1 3 5 15 17 ..., m_k = m_{k-1} xor 2×m_{k-1}). Point i is the xor of the v_k for the bits k set in i, computed
⍝ here on bit matrices with the inner product ≠.∧. Prints 4×(points with x²+y²≤1)÷N.
⍝ Checked by hand: the first 8 points are (1/2,1/2) (1/4,3/4) (3/4,1/4) (1/8,5/8) (5/8,1/8) (3/8,3/8) (7/8,7/8)
⍝ (1/16,15/16); all but the 7th are inside, so N=4 prints 4 and N=8 prints 3.5. With 26 bits every coordinate and
⍝ x²+y² are exact doubles, so C, NumPy and APL must print the same digits.
N←10000000 ⎕ArgInt 1
D←26
I←⍳N
bits←1=2|⌊I∘.÷2*¯1+⍳D
m←1 3 5 15 17 51 85 255 257 771 1285 3855 4369 13107 21845 65535 65537 196611 327685 983055 1114129 3342387 5570645 16711935 16843009 50529027
v1←(⍳D)∘.=⍳D
e←(⍳D)∘.-⍳D
v2←(e≥0)∧1=2|⌊((⍉(D,D)⍴m)÷2*0⌈e)
weights←2*-⍳D
x←(bits≠.∧v1)+.×weights
y←(bits≠.∧v2)+.×weights
⎕←4×(+/1≥(x×x)+y×y)÷N
