⍝ f@g whose g gives a number other than 0 and 1 (2 here): DOMAIN ERROR.
⍝! DOMAIN ERROR
0@{⍵}⍳3
