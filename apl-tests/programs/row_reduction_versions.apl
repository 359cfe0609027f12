⍝ Row sums of a double matrix whose size is known only at run time (⎕ArgInt with its defaults): each row's fold is
⍝ a nested parallel reduction (src/loops/passes/interchange.rs makes it one), so the loop over the rows gets two
⍝ versions (src/loops/passes/parallelise.rs): the rows in parallel, or one row after another with each row's chunks
⍝ of 4096 in parallel, chosen by outer_<i> (default 16 rows on the CPU: these 3 long rows take the second version).
⍝ Both fold every row in the same chunked order, so they print the same digits.
⍝ m is 0.5×3 5000⍴⍳7: a row holds 714 whole cycles 1..7 (714×28 = 19992) and two more elements. Row 1 starts at
⍝ 1 and ends with 1 2 (4998 = 714×7): 19995; row 2 starts at 1+5000 mod 7 = 3 and ends with 3 4: 19999; row 3
⍝ starts at 1+10000 mod 7 = 5 and ends with 5 6: 20003. Halved: 9997.5 9999.5 10001.5 (every partial sum is a
⍝ multiple of 0.5 far below 2^53, so exact in any order), and the total 29998.5.
⍝> 9997.5 9999.5 10001.5
⍝> 29998.5
⍝# mem versions 1
R←3 ⎕ArgInt 1
C←5000 ⎕ArgInt 2
m←0.5×(R,C)⍴⍳7
⎕←s←+/m
⎕←+/s
