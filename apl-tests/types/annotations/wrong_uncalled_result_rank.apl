⍝ never called, still checked: +/ of a matrix is a vector (rank 1), the annotation says a matrix
⍝! TYPE ERROR
sums←{ ⍝: [int]2 → [int]2
  +/⍵
}
