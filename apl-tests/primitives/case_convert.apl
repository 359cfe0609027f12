⍝ ⎕C: monadic ⎕C folds case (to lower case), ¯1 ⎕C gives lower case and 1 ⎕C upper case; letters of ASCII,
⍝ Latin-1, Greek and Cyrillic change, every other character (ß, blanks) and every number stays as it is, and a
⍝ nested vector's items convert one by one. Checked by hand from the Unicode case pairs: À É Î are à é î (+32), Σ Α
⍝ are σ α, ς becomes Σ, п р и в е т are П Р И В Е Т (-32), ѐ is Ѐ (-80).
⍝> hello world
⍝> HELLO WORLD
⍝> àéî straße σασ
⍝> ÀÉÎ STRAßE ΣΑΣ
⍝> ПРИВЕТ Ѐ
⍝> abc
⍝> def
⍝>  AB  CD
⍝> 1 2 3
⍝> 2
⎕C 'Hello World'
1 ⎕C 'Hello World'
¯1 ⎕C 'ÀÉÎ Straße ΣΑΣ'
1 ⎕C 'àéî straße σας'
1 ⎕C 'привет ѐ'
⎕C 2 3⍴'ABCdef'
1 ⎕C 'ab' 'cD'
⎕C 1 2 3
s←'Mixed Case'
+/s≠⎕C s
