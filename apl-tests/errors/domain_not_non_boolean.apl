⍝ ~ on a number that is not 0 or 1
⍝! DOMAIN ERROR
~2
