⍝ a guard may follow local assignments; branches return character vectors of different lengths
⍝> small
⍝> big
f←{
  a←⍵×2
  a>10:'big'
  'small'
}
f 3
f 8
