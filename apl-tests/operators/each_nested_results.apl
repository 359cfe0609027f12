⍝ Each over strands (nested vectors known item by item) and each with non-scalar results (src/elab/strands.rs).
⍝ Checked by hand, with Dyalog's display of nested vectors (a blank around each non-scalar item): the lengths of
⍝ 'the' 'quick' 'brown' are 3 5 5, their shapes one-item vectors; each word reversed; the strand has 3 items, the
⍝ first is 'the'; enlist catenates the words; mix pads them with blanks to 5 (the display drops trailing blanks);
⍝ reverse reverses the items; ⍕¨1 2 3 is three one-character vectors, '123' enlisted; ⍳¨ makes 1, 1 2, 1 2 3; the
⍝ means of 1 2 3 and 4 5 6 are scalars, a simple vector 2 5; ',¨' pairs each word with the scalar '!'; 1 2 3↑¨
⍝ pairs a vector with the words; {⍵ ⍵}¨1 2 is (1 1)(2 2); the lengths of ⍳¨⍳4 are 1 2 3 4; mix of (1 2)(3 4 5)
⍝ pads with 0; ↑ of the words is 3 by 5.
⍝> 3 5 5
⍝>  3  5  5
⍝>  eht  kciuq  nworb
⍝> 3
⍝> the
⍝> thequickbrown
⍝> the
⍝> quick
⍝> brown
⍝>  brown  quick  the
⍝> 123
⍝>  1  2  3
⍝>  1  1 2  1 2 3
⍝> 2 5
⍝>  the!  quick!  brown!
⍝>  t  qu  bro
⍝>  1 1  2 2
⍝> 1 2 3 4
⍝> 1 2 0
⍝> 3 4 5
⍝> 3 5
w←'the' 'quick' 'brown'
≢¨w
⍴¨w
⌽¨w
⍴w
⊃w
∊w
↑w
⌽w
∊⍕¨1 2 3
⍕¨1 2 3
⍳¨1 2 3
(+/÷≢)¨(1 2 3)(4 5 6)
w,¨'!'
1 2 3↑¨w
{⍵ ⍵}¨1 2
≢¨⍳¨⍳4
↑(1 2)(3 4 5)
⍴↑w
