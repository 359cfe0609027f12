:If x>0
  y←1
:EndIf
