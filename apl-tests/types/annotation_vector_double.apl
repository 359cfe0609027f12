⍝ a correct annotation from the thesis: diff maps a vector of length ρ+1 to one of length ρ
⍝ ⍳10 minus itself rotated right: the first difference 1-10 is dropped, the rest are 1
⍝> 9
⍝> 1 1 1 1 1 1 1 1 1
diff←{ ⍝: <κ>(ρ+1) → <κ>ρ
  1↓⍵-¯1⌽⍵
}
⍴diff ⍳10
diff ⍳10
