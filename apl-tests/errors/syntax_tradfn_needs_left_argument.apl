⍝ A dyadic tradfn called with no left argument (its header does not write {A}).
⍝! SYNTAX ERROR at 6:1
∇ R←A TWO B
  R←A+B
∇
TWO 3
