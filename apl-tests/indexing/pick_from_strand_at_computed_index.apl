⍝ Picking an item of a strand with an index known only when running (k⊃S, S[k]): the items must have one rank and
⍝ type, of any lengths. Checked by hand: n is 2, so 2⊃S is 'two' and 3⊃S 'three' (5 long); S[2] is ⊂'two',
⍝ shown after a blank; the third vector of T sums to 13.5; FizzBuzz picks ⍕⍵, 'Fizz' (3 divides ⍵), 'Buzz' (5 does)
⍝ or 'FizzBuzz' (both), all vectors, shown as a nested vector; NAMES 4 catenates 'cde' 'ab' 'cde' 'ab' (1+2|I is 2
⍝ for odd I).
⍝> two
⍝> three
⍝> 5
⍝>  two
⍝> 13.5
⍝>  1  2  Fizz  4  Buzz  Fizz  7  8  Fizz  Buzz  11  Fizz  13  14  FizzBuzz
⍝> cdeabcdeab
n←2 ⎕ArgInt 1
S←'one' 'two' 'three'
n⊃S
(n+1)⊃S
⍴(n+1)⊃S
S[n]
T←(1 2)(3 4 5)(6.5 7)
+/(n+1)⊃T
{(1+(0=3|⍵)+2×0=5|⍵)⊃(⍕⍵) 'Fizz' 'Buzz' 'FizzBuzz'}¨⍳15
∇ R←NAMES K;I
  R←''
  :For I :In ⍳K
      R,←(1+2|I)⊃'ab' 'cde'
  :EndFor
∇
NAMES 4
