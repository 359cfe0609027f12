⍝ Dyalog's scopes across dfns and traditional functions: a traditional function called from a dfn (or a dfn
⍝ operator) that assigns a name the dfn does not have changes that name outside the dfn (dynamic scope), and so does
⍝ a dfn's own acc+←⍵ or B[i;j]←; a dfn defined at the top level reads the top level's names as they are when it is
⍝ called, not as they were when it was defined. Checked by hand, CNT starting at 0:
⍝ - {BUMP ⍵}10 gives 10 and CNT is 10; f 5 gives 15; {BUMP ⍵}¨1 2 gives 16 18 (CNT 18);
⍝ - BUMP twice 1 is BUMP BUMP 1: 19, then 19+19 = 38;
⍝ - LOOP prints 39 and 41; BUMP¨10 20 is 51 71;
⍝ - add¨⍳5 gives each ⍵ (an assignment's value is its right argument) and acc is 1+2+3+4+5;
⍝ - MARK from dfns puts X at 2 2 and 3 1 of B;
⍝ - g reads x as 10 (assigned after g was defined): 11; h calls k, defined after h: 42;
⍝ - a dfn that has its own CNT gives 100+4 and leaves the outer CNT (71);
⍝ - r 5 unfolds (5 is a constant) into nested calls, each adding to tot: 0, and tot is 5+4+3+2+1.
⍝> 10
⍝> 10
⍝> 15
⍝> 15
⍝> 16 18
⍝> 18
⍝> 38
⍝> 38
⍝> 39
⍝> 41
⍝> 51 71
⍝> 1 2 3 4 5
⍝> 15
⍝> ...
⍝> .X.
⍝> X..
⍝> 11
⍝> 42
⍝> 104
⍝> 71
⍝> 0
⍝> 15
CNT←0
∇ R←BUMP X
  CNT←CNT+X
  R←CNT
∇
{BUMP ⍵}10
CNT
f←{BUMP ⍵}
f 5
CNT
{BUMP ⍵}¨1 2
CNT
twice←{⍺⍺ ⍺⍺ ⍵}
BUMP twice 1
CNT
∇ LOOP;I
  :For I :In 1 2
      ⎕←BUMP I
  :EndFor
∇
LOOP
BUMP¨10 20
acc←0
add←{acc+←⍵}
add¨⍳5
acc
B←3 3⍴'.'
∇ MARK (I J)
  B[I;J]←'X'
∇
{MARK ⍵ ⍵}2
{MARK ⍵ 1}3
B
x←1
g←{x+⍵}
x←10
g 1
h←{k ⍵}
k←{⍵×2}
h 21
{CNT←100 ⋄ BUMP ⍵}4
CNT
tot←0
r←{⍵=0:0 ⋄ tot+←⍵ ⋄ r ⍵-1}
r 5
tot
