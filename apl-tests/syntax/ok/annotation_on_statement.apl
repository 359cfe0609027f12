⍝: x : [double]2
x←2 3⍴0.5
