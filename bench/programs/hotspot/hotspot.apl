⍝ hotspot: the Rodinia HotSpot thermal simulation (chip 16 mm × 16 mm × 0.5 mm, Rodinia's constants), an explicit
⍝ 5-point stencil on an N×N grid for S steps; edge cells use themselves for the missing neighbours, which is exactly
⍝ Rodinia's special-cased edges and corners. Inputs: temperature 320+0.5×((7i+13j) mod 17) K, power
⍝ 0.001×(1+(ij mod 13)) W. Prints the sum of the final temperatures.
⍝ Checked by hand: for N=1 S=1 the single cell has no neighbours, T = 320+0.5×(20 mod 17) = 321.5, P = 0.002,
⍝ Cap = 0.112, step = 0.001÷(3e6÷437.5) = 1.4583e¯7, Rz = 0.01953125, so T' = 321.5+(step÷Cap)×(0.002+(80-321.5)÷Rz)
⍝ = 321.5-0.0161 = 321.4839 (worked on paper), which C and NumPy print for N=1 S=1; they agree at all sizes.
N←512 ⎕ArgInt 1
S←360 ⎕ArgInt 2
I←⍳N
T0←320+0.5×17|(7×I)∘.+13×I
P←0.001×1+13|I∘.×I
height←0.016÷N
width←0.016÷N
cap←0.5×1750000×0.0005×width×height
rx←width÷2×100×0.0005×height
ry←height÷2×100×0.0005×width
rz←0.0005÷100×height×width
stepcap←(0.001÷3000000÷0.5×0.0005×1750000)÷cap
step←{
  up←(1↑⍵)⍪¯1↓⍵
  down←(1↓⍵)⍪¯1↑⍵
  left←((N,1)↑⍵),0 ¯1↓⍵
  right←(0 1↓⍵),(N,¯1)↑⍵
  ⍵+stepcap×P+((down+up-2×⍵)÷ry)+((right+left-2×⍵)÷rx)+(80-⍵)÷rz
}
⎕←+/,(step⍣S)T0
