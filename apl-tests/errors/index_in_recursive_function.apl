⍝ An INDEX ERROR inside a recursive function points at the indexing: v[⍵+1] with ⍵=3 reads v[4] of a 3-element
⍝ vector (line 8, column 12, where v[⍵+1] starts). s, which indexes right, sums v[3]+v[2]+v[1] = 60 first.
⍝> 60
⍝! INDEX ERROR at 8:12
n←3 ⎕ArgInt 1
v←10 20 30
s←{⍵=0:0 ⋄ v[⍵]+∇ ⍵-1}
t←{⍵=0:0 ⋄ v[⍵+1]+∇ ⍵-1}
s n
t n
