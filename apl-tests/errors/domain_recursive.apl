⍝ an error deep in a recursion: the recursion reaches 1÷0 when ⍵ is 0
⍝! DOMAIN ERROR
f←{⍵=0:1÷⍵ ⋄ ∇ ⍵-1}
f 3
