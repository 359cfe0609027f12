⍝ The inner lengths of a boolean ≠.∧ are known only at run time and differ (3 and 4): both would pack into one
⍝ word, so the packed product checks them itself, and reports the LENGTH ERROR at the product.
⍝> before
⍝! LENGTH ERROR at 9:2
k←3 ⎕ArgInt 1
A←(2,k)⍴1
B←(k+1) 2⍴1
⎕←'before'
A≠.∧B
