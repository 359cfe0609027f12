⍝ a multi-line dfn with comments inside: the mean of a vector
⍝> 2.5
mean←{
  ⍝ the sum
  s←+/⍵
  ⍝ divided by the count
  s÷≢⍵
}
mean 1 2 3 4
