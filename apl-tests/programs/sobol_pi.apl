⍝ Monte-Carlo estimate of pi with a 2-dimensional Sobol sequence (10-bit integers, natural order)
⍝ point i (0..99): x = xor of v1[k] for the set bits k of i (bit 1 = least significant), same for y with v2
⍝ v1[k] = 2*10-k (van der Corput); v2[k] = m[k]×2*10-k with m[k] = m[k-1] xor 2×m[k-1], m[1]=1 (polynomial x+1):
⍝ m = 1 3 5 15 17 51 85 255 257 771, so v2 = 512 768 640 960 544 816 680 1020 514 771
⍝ a point is inside the quarter circle when x²+y² < 1024² (exact integers; no point lies on the circle)
⍝ the count (python3, same integer algorithm) is 81, so the estimate is 4×81÷100 = 3.24
⍝> 0 512 256 768 128 640 384 896
⍝> 0 512 768 256 640 128 384 896
⍝> 81
⍝> 3.24
xor←{⍺ ⎕INT32XOR ⍵}
v1←512 256 128 64 32 16 8 4 2 1
v2←512 768 640 960 544 816 680 1020 514 771
bits←{⌽(10⍴2)⊤⍵}
sobol←{xor/⍺×bits ⍵}
i←¯1+⍳100
x←{v1 sobol ⍵}¨i
y←{v2 sobol ⍵}¨i
x[⍳8]
y[⍳8]
n←+/((x×x)+y×y)<1024×1024
n
4×n÷100
