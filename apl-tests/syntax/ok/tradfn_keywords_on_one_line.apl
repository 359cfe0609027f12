⍝ Keyword lines may be separated by ⋄, keywords are matched in any case, and :End closes any structure.
∇ R←Sign X
  R←0 ⋄ :If X>0 ⋄ R←1 ⋄ :ElseIf X<0 ⋄ R←¯1 ⋄ :EndIf
  :while R>5 ⋄ R←R-1 ⋄ :end
  :FOR i :IN ⍳3 ⋄ :ENDFOR
∇
