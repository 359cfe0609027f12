⍝ a nonzero number divided by zero
⍝! DOMAIN ERROR at 3:2
1÷0
