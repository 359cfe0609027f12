⍝ dyadic ! is the binomial coefficient ⍺ out of ⍵; 5!3 is 0
⍝> 10
⍝> 20
⍝> 1 4 6 4 1
⍝> 0
2!5
3!6
0 1 2 3 4!4
5!3
