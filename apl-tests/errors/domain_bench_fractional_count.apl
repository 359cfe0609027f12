⍝ ⎕BENCH counts iterations: a count that is not a whole number is a DOMAIN ERROR, as for ⍣
⍝! DOMAIN ERROR
{⍵+1}⎕BENCH 1.5⊢0
