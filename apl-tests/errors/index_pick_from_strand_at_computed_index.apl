⍝ 4⊃ of a strand of three items, the 4 known only when running: an INDEX ERROR at ⊃
⍝! INDEX ERROR at 5:2
n←4 ⎕ArgInt 1
S←'one' 'two' 'three'
n⊃S
