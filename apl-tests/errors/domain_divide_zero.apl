⍝ a nonzero number divided by zero
⍝! DOMAIN ERROR
1÷0
