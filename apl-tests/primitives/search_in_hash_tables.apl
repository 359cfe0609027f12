⍝ ⍳ and ∊ on ints, characters and booleans look up a hash table of the searched vector (lengths known only when
⍝ running). Keys that share their low bits (multiples of 1024), negative keys, repeated keys (the first position
⍝ counts), an empty searched vector and keys at the ends of the int range. Checked by hand (n=40):
⍝ - 1024×⍳80 in 1024×⍳40: positions 1…40 (sum 820), then 40 absent at 41 each (1640): 2460;
⍝ - 3 40 found in place, 41 and 0 absent (41);
⍝ - v is ¯4…35 twice: ¯4 first at 1, 0 at 5, 35 at 40, 36 and ¯5 absent (81);
⍝ - w is 40⍴'abcde' then 'xyz': z at 43, a at 1, e at 5, q absent (44);
⍝ - b is 40⍴0 0 1: 1 first at 3, 0 at 1; nothing is in an empty vector;
⍝ - big is ¯9223372036854775806… (40 keys) then 9223372036854775806 downwards: found at 41 and 1, 0 absent (81).
⍝> 2460
⍝> 3 40 41 41
⍝> 1 5 40 81 81
⍝> 1 1 1 0 0
⍝> 43 1 5 44
⍝> 1 1 1 0
⍝> 3 1
⍝> 1 1 1
⍝> 0 0 0
⍝> 41 1 81
n←40 ⎕ArgInt 1
k←1024×⍳n
+/k⍳1024×⍳2×n
(1024×3 40 41 0)⍳⍨k
v←(¯5+⍳n),(¯5+⍳n)
v⍳¯4 0 35 36 ¯5
(¯4 0 35 36 ¯5)∊v
w←(n⍴'abcde'),'xyz'
w⍳'zaeq'
'zaeq'∊w
b←n⍴0 0 1
b⍳1 0
(0⍴n)⍳1 2 3
1 2 3∊0⍴n
big←(¯9223372036854775807+⍳n),9223372036854775807-⍳n
big⍳9223372036854775806 ¯9223372036854775806 0
