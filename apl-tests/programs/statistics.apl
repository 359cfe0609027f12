⍝ mean, population variance and standard deviation of a classic data set: 2 4 4 4 5 5 7 9
⍝ mean 40÷8 = 5; squared deviations 9 1 1 1 0 0 4 16 sum to 32, variance 32÷8 = 4, deviation 2
⍝> 5
⍝> 4
⍝> 2
mean←{(+/⍵)÷≢⍵}
var←{mean (⍵-mean ⍵)*2}
x←2 4 4 4 5 5 7 9
mean x
var x
(var x)*0.5
