⍝ a scalar function pairs the items of two nested vectors, which need as many items (2 and 3 here)
⍝! LENGTH ERROR at 3:11
(1 2)(3 4)+(1 2)(3 4)(5 6)
