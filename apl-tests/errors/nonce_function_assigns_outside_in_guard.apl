⍝ BUMP assigns CNT outside the dfn, called in one branch of a guard decided when running: the other branch leaves
⍝ CNT as it was, a join that aplc makes for a tradfn's :If but not for a guard: refused rather than lost.
⍝! NONCE ERROR at 9:2
n←3 ⎕ArgInt 1
CNT←0
∇ R←BUMP X
  CNT←CNT+X ⋄ R←CNT
∇
{⍵>0:BUMP ⍵ ⋄ 0}n
CNT
