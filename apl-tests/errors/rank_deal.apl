⍝ deal takes two scalars
⍝! RANK ERROR at 3:4
1 2?3
