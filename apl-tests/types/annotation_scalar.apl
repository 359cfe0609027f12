⍝ a correct scalar annotation int → int
⍝> 49
sq←{ ⍝: int → int
  ⍵×⍵
}
sq 7
