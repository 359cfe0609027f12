⍝ ! of a negative integer (a pole of the gamma function)
⍝! DOMAIN ERROR
!¯1
