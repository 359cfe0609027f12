⍝ a correct polymorphic annotation: reversal keeps base type and length
⍝> 3 2 1
⍝> cba
rev←{ ⍝: <κ>ρ → <κ>ρ
  ⌽⍵
}
rev 1 2 3
rev 'abc'
