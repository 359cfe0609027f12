⍝ 1|x is the fractional part towards minus infinity: 1|¯3.25 = ¯3.25-⌊¯3.25 = ¯3.25+4 = 0.75
⍝> 0.25 0.75
⍝> 0.5
1|3.25 ¯3.25
2.5|5.5
