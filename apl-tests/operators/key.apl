⍝ ⌸ (key) on a vector of keys (prelude key_indices and key_cells): f runs once per distinct key, in order of first
⍝ occurrence, with the key as ⍺ and its indices (monadic) or its major cells of the right argument (dyadic) as ⍵.
⍝ Checked by hand: in 3 1 3 3 2 the keys 3 1 2 occur 3, 1 and 1 times. In 1 1 2, key 1 has the indices 1 2 (sum 3)
⍝ and key 2 the index 3. 'abab' keys 1 2 3 4: a has 1+3, b 2+4. 'aba' keys the rows 1 2/3 4/5 6: a has the rows 1
⍝ and 3 (column sums 6 8), b the row 2 (3 4). No keys: a 0×2 result. Keys 3|⍳5 = 1 2 0 1 2 of run-time length: 1
⍝ twice, 2 twice, 0 once. Double keys: 1.5 has 10+30, times 1.5 = 60; 2 has 20, times 2 = 40. Boolean keys.
⍝ 100 keys 7|⍳100 (sorted in runs and merges): 1 and 2 occur 15 times, 3 4 5 6 0 14 times (100 = 7×14+2); the
⍝ indices of key k are k, k+7, …: sums 15+7×105 = 750 for 1, 765 for 2, 3×14+7×91 = 679 for 3, then 693 707 721,
⍝ and 735 for 0 (7, 14, …, 98). Reversed, the keys first occur in the order 100 99 98 … mod 7: 2 1 0 6 5 4 3.
⍝> 3 1 1
⍝> 1 3
⍝> 2 3
⍝> 4 6
⍝> 6 8
⍝> 3 4
⍝> 0 2
⍝> 1 2
⍝> 2 2
⍝> 0 1
⍝> 60 40
⍝> 1 3
⍝> 0 2
⍝> 1 15 2 15 3 14 4 14 5 14 6 14 0 14
⍝> 750 765 679 693 707 721 735
⍝> 2 15 1 15 0 14 6 14 5 14 4 14 3 14
{≢⍵}⌸3 1 3 3 2
{⍺,+/⍵}⌸1 1 2
'abab'{+/⍵}⌸1 2 3 4
'aba'{+⌿⍵}⌸3 2⍴⍳6
⍴{⍺,≢⍵}⌸⍬
n←5 ⎕ArgInt 1
{⍺,≢⍵}⌸3|⍳n
1.5 2 1.5{⍺×+/⍵}⌸10 20 30
{⍺,≢⍵}⌸1 0 1 1 0
,{⍺,≢⍵}⌸7|⍳100
{+/⍵}⌸7|⍳100
,{⍺,≢⍵}⌸⌽7|⍳100
