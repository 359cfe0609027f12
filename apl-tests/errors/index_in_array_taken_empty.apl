⍝ (0 0)[1 3] is an INDEX ERROR (there is no element 3), even when 0↑ then keeps none of its elements.
⍝! INDEX ERROR
0↑(0 0)[1 3]
