⍝ a correct rank annotation: transpose of an int matrix is an int matrix
⍝> 1 4
⍝> 2 5
⍝> 3 6
tr←{ ⍝: [int]2 → [int]2
  ⍉⍵
}
tr 2 3⍴⍳6
