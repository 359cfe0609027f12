⍝ dyadic ÷ always gives the exact quotient; integral results print without a point
⍝> 3.5
⍝> 2
⍝> 0.6666666667
⍝> 2 ¯2.5 0.1
7÷2
6÷3
2÷3
4 ¯5 1÷2 2 10
