⍝ A tradfn whose body never assigns its result name: the call has no value.
⍝! VALUE ERROR at 6:1
∇ R←F X
  X←X+1
∇
F 2
