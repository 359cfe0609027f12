⍝ boolean scalar functions need equal lengths too
⍝! LENGTH ERROR
1 0 1∧1 0
