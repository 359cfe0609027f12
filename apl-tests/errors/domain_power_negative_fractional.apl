⍝ A negative number to a fractional power has no real result: a DOMAIN ERROR (the result type is not complex),
⍝ the same whether the power is a literal folded at compile time or computed at run time; the output before it is
⍝ printed.
⍝> 2
⍝! DOMAIN ERROR
⎕←4*0.5
¯4*0.5
