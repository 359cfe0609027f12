⍝ Scans of rows longer than one chunk (4096 elements) run as a parallel scan in chunks (src/lower/scan.rs): the
⍝ chunks' totals, their exclusive prefix, then each chunk again from its prefix. Values by hand (python3's
⍝ itertools.accumulate agrees):
⍝ +\⍳n is k(k+1)÷2 at k: 1, 8390656 (k=4096), 8394753, 33558528 (8192), 33566721, 50005000 (10000); halved for
⍝ +\0.5×⍳n. A 2×5000 matrix of ⍳10000: row 1 ends at 12502500, row 2 is 5000k+k(k+1)÷2 (37502500 at k=5000,
⍝ 28879753 at k=4097).
⍝> 1 8390656 8394753 33558528 33566721 50005000
⍝> 0.5 4195328 4197376.5 25002500
⍝> 12502500 37502500 28879753
v←+\⍳10000
v[1 4096 4097 8192 8193 10000]
(+\0.5×⍳10000)[1 4096 4097 10000]
m←+\2 5000⍴⍳10000
m[1 2;5000],m[2;4097]
⍝ Lengths known only at run time (N is 31000, K is 31, without arguments): a test of the length picks the running
⍝ scan for one chunk or less, the chunks for more. +/+\N⍴1 is N(N+1)÷2 = 480515500, three such rows 1441546500.
⍝ ⌈\N⍴3 1 4 1 5 9 2 6 is 3 3 4 4 5 then 9: 19+9×(N−5) = 278974. ≠\N⍴1 0 0 is 1 in the odd groups of three:
⍝ 5167 groups of 3 = 15501. ×\N⍴0.5 2 alternates 0.5 1 (exact): the last is 1, the sum 0.75N = 23250 (native code
⍝ once reassociated the chunks' products in vector lanes of only 2s and stopped with a DOMAIN ERROR here).
⍝ +\0.1×⍳N ends at 0.1×480515500 = 48051550. ∨\ of 5000 zeros, a one and N zeros has N+1 ones; ∧\ of 6000 ones, a
⍝ zero and N ones has 6000. +\K⍴2 ends at 62; the rows of +\N 3⍴1 2 3 are 1 3 6, 10N = 310000 in all.
⍝> 480515500 1441546500
⍝> 278974 15501
⍝> 1 23250
⍝> 48051550
⍝> 31001 6000
⍝> 62 310000
N←31000 ⎕ArgInt 1
K←31 ⎕ArgInt 2
(+/+\N⍴1),+/,+\3 N⍴1
(+/⌈\N⍴3 1 4 1 5 9 2 6),+/≠\N⍴1 0 0
p←×\N⍴0.5 2
p[N],+/p
¯1↑+\0.1×⍳N
(+/∨\(5000⍴0),1,N⍴0),+/∧\(6000⍴1),0,N⍴1
(¯1↑+\K⍴2),+/,+\N 3⍴1 2 3
⍝ An int +\ stops only where a prefix does not fit: here chunk 2 (elements 4097 to 8192) holds two 4.7E18s, whose
⍝ sum does not fit, but every prefix does (¯4.7E18 then 0 then 4.7E18 and up by one 5000 times): no DOMAIN ERROR.
⍝> ¯4.7E18 ¯4.7E18 0 4.7E18 4.7E18 4.7E18
w←(¯4700000000000000000),(4095⍴0),(2⍴4700000000000000000),5000⍴1
(+\w)[1 4096 4097 4098 4099 9098]
