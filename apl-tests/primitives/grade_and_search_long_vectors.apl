⍝ ⍋ ⍒ on vectors long enough for the merge sort's merges (runs of 32, merged in rounds), and ⍳ ∊ searching
⍝ vectors long enough to be sorted and binary-searched (src/lower/search.rs). Checked by hand:
⍝ - x (1000 distinct residues 7919i mod 1000003) sorted is ascending; for distinct keys, ⍒ is ⍋ reversed;
⍝ - ⍋ of 1..n and of n..1 for n = 33, 65, 129, 1000 (one run and a bit, uneven merges, several rounds) is ⍳n and
⍝   ⌽⍳n (the reversed input moves every key);
⍝ - stability: the keys 5|⍳100 are 1 2 3 4 0 repeated; ⍋ lists the twenty 0s first, at 5 10 … 100, in order;
⍝   ⍒ lists the 4s first, at 4 9 … 99; ⍋ of 100⍴1 0 lists the 0s at 2 4 … first and ends with the 1s … 95 97 99;
⍝ - ÷⍳50 decreases, so its grade is ⌽⍳50; in the 40 letters (⌽⎕A),14↑⎕A, A is at 26 (in ⌽⎕A) and 27, B at 25
⍝   and 28, C at 24 and 29: the grade starts 26 27 25 28 24 29 (equal letters in their order in the vector);
⍝ - ⍳ finds first occurrences: 7 1 in 100⍴⍳7 are at 7 1, 0 is absent (101); in ⌽⍳100, 1 100 50 are at 100 1 51;
⍝   in 100⍴3 1 2, 1 2 3 are at 2 3 1 and 4 is absent; 'cab' in 50⍴'abc' at 3 1 2;
⍝ - ∊: among 1…10, only 2 4 6 occur in 100⍴2 4 6; x⍳x is ⍳1000 (distinct keys); 1…2000 holds two of x's values
⍝   (7919×i mod 1000003 is 1292 for i = 379 and 375 for i = 884, and above 2000 for every other i ≤ 1000, by a
⍝   separate Python check).
⍝> 1
⍝> 1
⍝> 1 1 1 1
⍝> 1 1 1 1
⍝> 5 10 15 20 25 30 35 40 45 50 55 60 65 70 75 80 85 90 95 100
⍝> 4 9 14 19 24 29 34 39 44 49 54 59 64 69 74 79 84 89 94 99
⍝> 2 4 6 8 10
⍝> 95 97 99
⍝> 1
⍝> 26 27 25 28 24 29
⍝> 7 1 101
⍝> 100 1 51
⍝> 2 3 1 101
⍝> 3 1 2
⍝> 0 1 0 1 0 1 0 0 0 0
⍝> 1
⍝> 2
x←1000003|7919×⍳1000
∧/2≤/x[⍋x]
(⍒x)≡⌽⍋x
(⍳¨33 65 129 1000)≡¨⍋¨⍳¨33 65 129 1000
(⌽¨⍳¨33 65 129 1000)≡¨⍋¨⌽¨⍳¨33 65 129 1000
20↑⍋5|⍳100
20↑⍒5|⍳100
5↑⍋100⍴1 0
¯3↑⍋100⍴1 0
(⍋÷⍳50)≡⌽⍳50
6↑⍋(⌽⎕A),14↑⎕A
(100⍴⍳7)⍳7 1 0
(⌽⍳100)⍳1 100 50
(100⍴3 1 2)⍳1 2 3 4
(50⍴'abc')⍳'cab'
(⍳10)∊100⍴2 4 6
(⍳1000)≡x⍳x
+/(⍳2000)∊x
