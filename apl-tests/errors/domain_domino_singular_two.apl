⍝ [1 2; 2 4] is singular (its second row is twice the first): the elimination's second pivot is exactly 0.
⍝! DOMAIN ERROR at 3:1
⌹2 2⍴1 2 2 4
