⍝ Branches (→) and labels in traditional functions: the header is line 0, and blank and comment lines count.
∇ R←Triangle N;I
  R←0 ⋄ I←0

  ⍝ the loop starts on line 4
LOOP: →(I≥N)/END
  I←I+1 ⋄ R←R+I
  →LOOP
END:
∇

∇ R←Sign X
  →(X>0)/POSITIVE
  R←¯1×X≠0 ⋄ →0
POSITIVE: R←1
  :If R=1
    →DONE×⍳R=1
  :EndIf
DONE:
∇
