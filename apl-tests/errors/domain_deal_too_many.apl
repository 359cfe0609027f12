⍝ 5?3 asks for 5 distinct items of ⍳3
⍝! DOMAIN ERROR at 3:2
5?3
