⍝ :Return and → inside loops: every loop around them ends and the function returns (or goes on at the branch's
⍝ label); the statements after each loop run only when it was not left that way. Worked by hand:
⍝ G 7 adds 1 and 2, then returns at I=3; G 2 finishes its loop and sets R to 100. FIND returns the index of the
⍝ first negative item (¯1 when there is none). PAIR 5 leaves both loops at I=3, J=4 (3×4=12) by →0, after R[1]
⍝ was set to 1 and 2 by the outer passes; PAIR 3 never finds 12, so R[1] ends as 3 and R is multiplied by 10.
⍝ W counts to 5 and returns from inside :While 1. L branches out of its :Repeat to DONE once I passes N: I takes
⍝ 1 3 (then 5 ends the :Repeat), →TOP makes it 6, the :Repeat adds 6 and I becomes 8, →TOP makes it 9, and the
⍝ next pass branches to DONE, which appends 0.
⍝> 3
⍝> 100
⍝> 3
⍝> ¯1
⍝> 3 4
⍝> 30 0
⍝> 5
⍝> 1 3 6 0
P←7 ⎕ArgInt 1
∇ R←G N;I
  R←0
  :For I :In ⍳N
      :If I=3
          :Return
      :EndIf
      R+←I
  :EndFor
  R←100
∇
G P
G 2
∇ R←FIND V;I
  R←0
  :For I :In ⍳≢V
    :If 0>V[I]
      R←I
      :Return
    :EndIf
  :EndFor
  R←¯1
∇
FIND 3 1 ¯4 5 ¯2
FIND 3 1 4
∇ R←PAIR N;I;J
  R←0 0
  :For I :In ⍳N
    :For J :In ⍳N
      :If (I×J)=12
        R←I J
        →0
      :EndIf
    :EndFor
    R[1]←I
  :EndFor
  R←R×10
∇
PAIR 5
PAIR 3
∇ R←W N
  R←0
  :While 1
    R+←1
    :If R≥N ⋄ :Return ⋄ :EndIf
  :EndWhile
∇
W 5
∇ R←L N;I
  I←0 ⋄ R←⍬
 TOP:I←I+1
  :Repeat
    :If I>N ⋄ →DONE ⋄ :EndIf
    R←R,I ⋄ I←I+2
  :Until I>3
  →TOP
 DONE:R←R,0
∇
L 6
