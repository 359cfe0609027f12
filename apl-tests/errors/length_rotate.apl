⍝ a vector left argument of ⌽ needs one count per row
⍝! LENGTH ERROR at 3:6
1 2 3⌽2 2⍴1
