⍝ / ⌿ \ ⍀ as the operand of ⍨ or ¨ are the functions replicate and expand (Dyalog's V/⍨B is B/V); after a function
⍝ they stay the operators reduce and scan. Checked by hand: the odd items of ⍳9; the items above 2; 'abc' with
⍝ counts 2 1 0; rows 1 and 3 of M; 1 0 1 1\1 2 3 puts a 0 in the second place; 2 2/'ab' and 1 3/'cd' item by item
⍝ (a nested vector); +/⍳9 is 45; the column sums of M are 1+3+5 and 2+4+6; the running sums of ⍳4; /⍨1 2 3 is
⍝ 1 2 3/1 2 3.
⍝> 1 3 5 7 9
⍝> 3 4 5
⍝> aab
⍝> 1 2
⍝> 5 6
⍝> 1 0 2 3
⍝>  aabb  cddd
⍝> 45
⍝> 9 12
⍝> 1 3 6 10
⍝> 1 2 2 3 3 3
v←⍳9
v/⍨2|v
{⍵/⍨⍵>2}1 2 3 4 5
'abc'/⍨2 1 0
M←3 2⍴⍳6
M⌿⍨1 0 1
1 2 3\⍨1 0 1 1
(2 2)(1 3)/¨'ab' 'cd'
+/v
+⌿M
+\⍳4
/⍨1 2 3
