⍝ the annotation says the result is a matrix but +/ of a matrix is a vector
⍝! TYPE ERROR
rows←{ ⍝: [int]2 → [int]2
  +/⍵
}
rows 2 3⍴⍳6
