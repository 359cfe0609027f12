⍝ ⎕BENCH is a dyadic operator: its left operand must be a function
⍝! SYNTAX ERROR
3 ⎕BENCH 2⊢1
