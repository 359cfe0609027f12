⍝ Selective assignment: (f V)←X with f structural stores X at the items f selects; only the last V is the target
⍝ ((V>5)/V reads V's values on the left). Worked by hand on ⍳10: 2↑ zeroes items 1 2; (V>5)/ sets 6..10 to 99;
⍝ ¯3↑ +← adds 1 to the last three. (,M)← fills a matrix by rows; the transpose 2 1⍉M receives 4 3⍴⍳12, so M[j;i]
⍝ is ⍳12's item 3(i-1)+j: M's first row is 1 4 7 10. ⊖M← puts 3 4⍴100×⍳12's first row (100 … 400) in M's last
⍝ row. 2⊃ and ⊃ pick one item; the blanks of a char vector become _; the value of a selective assignment is its
⍝ right argument (X is 9); 1↓[2] leaves M's first column alone. In a dfn the selection changes the dfn's own V.
⍝ An indexed name may end the selection: (V[⍋V])←⍳4 gives the smallest item 1, the next 2, …: 5 3 8 1 becomes
⍝ 3 2 4 1; (2↑M[2;])←0 zeroes the first two items of M's second row.
⍝> 0 0 3 4 5 6 7 8 9 10
⍝> 0 0 3 4 5 99 99 99 99 99
⍝> 0 0 3 4 5 99 99 100 100 100
⍝> 13 14 15 16
⍝> 17 18 19 20
⍝> 21 22 23 24
⍝> 1 4 7 10
⍝> 2 5 8 11
⍝> 3 6 9 12
⍝> 900 1000 1100 1200
⍝> 500  600  700  800
⍝> 100  200  300  400
⍝> 0 7 3 4 5 99 99 100 100 100
⍝> 5 7 3 4 5 99 99 100 100 100
⍝> hello_world
⍝> 9
⍝> 9 9 9 4 5 99 99 100 100 100
⍝> 1 0 0 0
⍝> 5 0 0 0
⍝> 9 0 0 0
⍝> 1 2 0 0 0
⍝> 1 2 3 4 5
⍝> 3 2 4 1
⍝> 1  2  3  4
⍝> 0  0  7  8
⍝> 9 10 11 12
V←⍳10
(2↑V)←0
V
((V>5)/V)←99
V
(¯3↑V)+←1
V
M←3 4⍴⍳12
(,M)←12+⍳12
M
(2 1⍉M)←4 3⍴⍳12
M
M←3 4⍴⍳12
(⊖M)←3 4⍴100×⍳12
M
(2⊃V)←7
V
(⊃V)←5
V
W←'hello world'
((W=' ')/W)←'_'
W
X←(3↑V)←9
X
V
M←3 4⍴⍳12
(1↓[2]M)←0
M
V←⍳5
F←{V←⍵ ⋄ (2↓V)←0 ⋄ V}
F V
V
V←5 3 8 1
(V[⍋V])←⍳4
V
M←3 4⍴⍳12
(2↑M[2;])←0
M
