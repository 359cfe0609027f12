⍝ Int arrays whose values provably fit a narrower int are stored narrow (src/loops/passes/narrow_storage.rs), each
⍝ at the edges of its width; the indexed assignment keeps each a real block (it cannot be recomputed from ⍳).
⍝ x is ¯128..127 (int8) with x[3] (¯126) set to 127: the sum of ¯128..127 is ¯128, so +/x is ¯128+126+127 = 125.
⍝ y is ¯129..128 (int16): sum ¯129, y[3] (¯127) set to 128 gives ¯129+127+128 = 126.
⍝ z is ¯32768..32767 (int16): sum ¯32768, z[3] (¯32766) set to 32767 gives 32765.
⍝ u is ¯32769..32768 (int32): sum ¯32769, u[3] (¯32767) set to 32768 gives 32766.
⍝ The indices 1 3 256 are an int16 block too. B is 5 6⍴ of 1..30 ∊ the even numbers: every row is 0 1 0 1 0 1.
⍝ Its row sums c are all 3 (a sum of 6 booleans: int8), c[1] set to 6: 6 3 3 3 3, sum 18.
⍝ Its column sums d are 0 5 0 5 0 5 (int8), d[2] set to 5 changes nothing: sum 15. The even numbers 2×⍳15 are int8.
⍝> 125 127 ¯128 ¯128 127 127
⍝> 126 128 ¯129
⍝> 32765 32767 ¯32768
⍝> 32766 32768 ¯32769
⍝> 18 6 6 3 3 3 3
⍝> 15 5 0 5 0 5 0 5
⍝# mem narrow-blocks 8
x←¯129+⍳256
x[3]←127
(+/x),(⌈/x),(⌊/x),x[1 3 256]
y←¯130+⍳258
y[3]←128
(+/y),(⌈/y),(⌊/y)
z←¯32769+⍳65536
z[3]←32767
(+/z),(⌈/z),(⌊/z)
u←¯32770+⍳65538
u[3]←32768
(+/u),(⌈/u),(⌊/u)
B←(5 6⍴⍳30)∊2×⍳15
c←+/B
c[1]←6
(+/c),(⌈/c),c
d←+⌿B
d[2]←5
(+/d),(⌈/d),d
