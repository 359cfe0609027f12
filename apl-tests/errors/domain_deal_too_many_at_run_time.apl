⍝ n?3 with n = 5 read at run time asks for 5 distinct items of ⍳3
⍝! DOMAIN ERROR at 4:2
n←5 ⎕ArgInt 1
n?3
