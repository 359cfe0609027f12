⍝ :While c … :Until u: after each pass the loop ends when u holds, and otherwise when c no longer holds; c is also
⍝ tested before the first pass. Worked by hand: W 3 appends 1 2 3 and stops when I<3 fails (the sums 1 3 6 never
⍝ pass 10); W 10 stops after appending 5 (1+2+3+4+5=15>10); W 0 makes no pass (an empty line); C counts the passes
⍝ of a loop left by :Leave at the third pass, before either test could end it.
⍝> 1 2 3
⍝> 1 2 3 4 5
⍝>
⍝> 3
P←0 ⎕ArgInt 1
∇ R←W N;I
  I←0 ⋄ R←⍬
  :While I<N
      I←I+1 ⋄ R←R,I
  :Until 10<+/R
∇
W 3+P
W 10+P
W P
∇ R←C N
  R←0
  :While R<N
      R←R+1
      :If R=3 ⋄ :Leave ⋄ :EndIf
  :Until R>N
∇
C 100+P
