∇ R←Double X
  R←2×X
Double 3
