⍝ a correct annotation from the thesis: diff maps a vector of length ρ+1 to one of length ρ
⍝ ⍳10 minus itself rotated right: the first difference 1-10 is dropped, the rest are 1
⍝ the thesis writes <κ>(ρ+1) → <κ>ρ, but κ stands for every base type and ⍵-¯1⌽⍵ gives ints for booleans and
⍝ fails for characters, so the annotation names the base type of ⍳10 (grammar.md §5)
⍝> 9
⍝> 1 1 1 1 1 1 1 1 1
diff←{ ⍝: <int>(ρ+1) → <int>ρ
  1↓⍵-¯1⌽⍵
}
⍴diff ⍳10
diff ⍳10
