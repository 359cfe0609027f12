⍝ a fork whose outer tines are functions and the result is a scalar: the sum divided by the largest item
⍝> 2.5
(+/÷⌈/)1 2 3 4
