⍝ A vector whose display is longer than ⎕PW (80 by default) is folded as Dyalog folds it: the first line holds what
⍝ fits in ⎕PW characters, each continuation line starts with six blanks and holds what fits in ⎕PW again; numbers
⍝ are never cut, characters are. Checked by hand: 1 to 9 take 2 characters each with their blank, 10 to 30 take 3,
⍝ so 1 to 30 is 18+63-1 = 80 characters; a continuation line holds 6 blanks and 25 two-digit numbers (6+74 = 80).
⍝ With ⎕PW←50: 1 to 20 is 18+33-1 = 50 characters; ¯0.5 to ¯6 is 36 characters and 11 blanks, 47, and ¯6.5 would
⍝ make 52. With 42: 1 to 17 is 18+24-1 = 41. 90⍴⎕D is 80 digits, then the last 10 after six blanks. A
⍝ tradfn that localises ⎕PW leaves the caller's as it was; a dfn's is its own.
⍝> 01234567890123456789012345678901234567890123456789012345678901234567890123456789
⍝>       0123456789
⍝> 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
⍝>       31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55
⍝>       56 57 58 59 60
⍝> 80
⍝> 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
⍝>       21 22 23 24 25 26 27 28 29 30
⍝> abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij
⍝>       abcdefghij
⍝> ¯0.5 ¯1 ¯1.5 ¯2 ¯2.5 ¯3 ¯3.5 ¯4 ¯4.5 ¯5 ¯5.5 ¯6
⍝>       ¯6.5 ¯7 ¯7.5 ¯8
⍝> 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17
⍝>       18 19 20 21 22
⍝> 50
⍝> 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40
90⍴⎕D
⍳60
⎕PW
⎕PW←50
⍳30
60⍴'abcdefghij'
-0.5×⍳16
∇ WIDE X;⎕PW
  ⎕PW←42
  ⎕←X
∇
WIDE ⍳22
⎕PW
⎕PW←200
⍳40
