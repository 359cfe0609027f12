f←{
  :If ⍵>0
    1
  :EndIf
}
