⍝ a token that is not a number in a file of numbers is a DOMAIN ERROR (text.txt holds "hello, world")
⍝! DOMAIN ERROR
⎕ReadIntVecFile 'apl-tests/data/text.txt'
