⍝ +/ of a matrix is a vector (rank 1), not a matrix
⍝! TYPE ERROR
sums←{ ⍝: [int]2 → [int]2
  +/⍵
}
sums 2 3⍴⍳6
