⍝ the dfn takes booleans and is called with doubles, which do not promote down
⍝! TYPE ERROR
flip←{ ⍝: [bool]1 → [bool]1
  ~⍵
}
flip 0.5 1.5
