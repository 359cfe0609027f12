⍝ a Caesar cipher on lower-case letters with index-of, residue and indexing
⍝ 'hello' shifted by 3: h(8)→1+26|10=11 k, e(5)→8 h, l(12)→15 o, o(15)→18 r; x y z wrap to a b c
⍝> khoor
⍝> abc
⍝> hello
a←'abcdefghijklmnopqrstuvwxyz'
enc←{a[1+26|(a⍳⍵)-1-⍺]}
3 enc 'hello'
3 enc 'xyz'
¯3 enc 3 enc 'hello'
