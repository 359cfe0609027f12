⍝ tail-recursive Collatz step count: 6→3→10→5→16→8→4→2→1 is 8 steps; 7 takes 16 steps
⍝> 8
⍝> 16
⍝> 0
steps←{
  ⍺←0
  ⍵=1:⍺
  0=2|⍵:(⍺+1)∇ ⌊⍵÷2
  (⍺+1)∇ 1+3×⍵
}
steps 6
steps 7
steps 1
