⍝ Expand with any integer counts (Dyalog): a positive k repeats the next item k times, a negative k inserts |k|
⍝ fill items (0, or a blank for characters), 0 inserts one fill item; along the last axis (\) or the first (⍀).
⍝> 4 0 0 5 5 5
⍝> 4 4 0 5
⍝> aa b
⍝> 1 2 3
⍝> 0 0 0
⍝> 4 5 6
⍝> 4 5 6
⍝> 1 1 0 0 2
⍝> 3 3 0 0 4
⍝> 7 7 0 8
1 ¯2 3\4 5
2 0 1\4 5
2 0 1\'ab'
1 ¯1 2⍀2 3⍴⍳6
2 ¯2 1\2 2⍴⍳4
k←2 ¯1 1
k\7 8
