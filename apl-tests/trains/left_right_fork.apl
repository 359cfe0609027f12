⍝ dyadic forks with ⊣ and ⊢ as tines
⍝> 3
⍝> ¯3
5(⊣-⊢)2
5(⊢-⊣)2
