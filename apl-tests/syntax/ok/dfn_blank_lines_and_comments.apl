f←{

  ⍝ a comment inside
  a←⍵+1 ⍝ trailing

  a×2
}
