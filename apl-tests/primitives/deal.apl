⍝ ⍺?⍵ (deal): ⍺ distinct integers from ⍳⍵ in random order (prelude deal: a partial Fisher-Yates shuffle drawing
⍝ with ?). The numbers differ from Dyalog's (another generator), so this checks what every deal must satisfy: 5?5
⍝ sorted is ⍳5; 100?100 sorted is ⍳100; 3?10 has 3 items, all in 1..10; 20 of ⍳1000 are 20 distinct items; 0?0
⍝ and 0?7 are empty; a deal of run-time sizes (n=4 of 9) too; and ?, shared with deal, keeps drawing the same
⍝ sequence on every backend (the file's output is compared across backends).
⍝> 1 2 3 4 5
⍝> 1
⍝> 3
⍝> 1
⍝> 20
⍝> 0
⍝> 0
⍝> 4 1 1
⍝> 1 1 1 1 1
{⍵[⍋⍵]}5?5
(⍳100)≡{⍵[⍋⍵]}100?100
⍴3?10
∧/(0<d)∧10≥d←3?10
≢∪20?1000
≢0?0
≢0?7
n←4 ⎕ArgInt 1
d←n?9
(≢d),(∧/d∊⍳9),(≢∪d)=n
(5?5)∊⍳5
