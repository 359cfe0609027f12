⍝ (0 0)[1 3] is an INDEX ERROR even when 0 0/ then keeps none of its elements: APL computes the argument first.
⍝! INDEX ERROR
(0 0)/(0 0)[1 3]
