⍝ matrix products with +.×: a 2 by 3 times a 3 by 2 matrix, and a Fibonacci matrix power with ⍣
⍝ [1 2 3;4 5 6]+.×[7 8;9 10;11 12] = [7+18+33 8+20+36; 28+45+66 32+50+72] = [58 64; 139 154]
⍝ B+.×(2 by 2 identity) is B again
⍝ F←[1 1;1 0] has F*n = [F(n+1) F(n); F(n) F(n-1)]; G←F+.×F = [2 1;1 1]; G to the power 5 = F*10 = [89 55; 55 34]
⍝>  58  64
⍝> 139 154
⍝> 89 55
⍝> 55 34
⍝> 1
A←2 3⍴1 2 3 4 5 6
B←3 2⍴7 8 9 10 11 12
A+.×B
G←2 2⍴2 1 1 1
{⍵+.×G}⍣4⊢G
I←(⍳2)∘.=⍳2
∧/,(B+.×I)=B
