⍝ annotations proved once, generically, from the body (shape variables rigid), then used at calls
⍝ tail 1 2 3 drops 1; twice catenates ⍵ to itself; pad puts 0 in front; upto 4 is ⍳4; tr transposes 2 3⍴⍳6;
⍝ half halves; 3 scale 1 2 is 3 6; count gives the length; mid drops the first and the last
⍝> 2 3
⍝> 1 2 1 2
⍝> abab
⍝> 0 5 6
⍝> 1 2 3 4
⍝> 1 4
⍝> 2 5
⍝> 3 6
⍝> 0.5 1.5
⍝> 3 6
⍝> 3
⍝> 2 3
tail←{ ⍝: <int>(ρ+1) → <int>ρ
  1↓⍵
}
twice←{ ⍝: <κ>ρ → <κ>(ρ+ρ)
  ⍵,⍵
}
pad←{ ⍝: <int>ρ → <int>(ρ+1)
  0,⍵
}
upto←{ ⍝: S(int,n) → <int>n
  ⍳⍵
}
tr←{ ⍝: [int]2 → [int]2
  ⍉⍵
}
half←{ ⍝: <double>ρ → <double>ρ
  ⍵÷2
}
scale←{ ⍝: int → <int>ρ → <int>ρ
  ⍺×⍵
}
count←{ ⍝: <κ>ρ → S(int,ρ)
  ≢⍵
}
mid←{ ⍝: <int>(ρ+2) → <int>ρ
  1↓¯1↓⍵
}
tail 1 2 3
twice 1 2
twice 'ab'
pad 5 6
upto 4
tr 2 3⍴⍳6
half 1 3
3 scale 1 2
count 'abc'
mid 1 2 3 4
