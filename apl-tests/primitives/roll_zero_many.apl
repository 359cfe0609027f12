⍝ ? of zeros draws numbers strictly between 0 and 1, also for an argument too long to be known element by element
⍝ at compile time (5000 booleans); ? of ones draws 1.
⍝> 1
⍝> 1
x←?5000⍴0
(∧/x>0)∧∧/x<1
∧/1=?5000⍴1
