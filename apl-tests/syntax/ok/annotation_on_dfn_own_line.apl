f←{
  ⍝: [int]1 → int
  +/⍵
}
