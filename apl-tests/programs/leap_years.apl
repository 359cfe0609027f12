⍝ leap years by the Gregorian rule: divisible by 4 and not by 100, or divisible by 400
⍝ 1900 no (by 100, not 400), 2000 yes (by 400), 2023 no, 2024 yes; there are 25 leap years in 1901..2000 (1904, 1908, ..., 2000)
⍝> 0 1 0 1
⍝> 25
leap←{(0=400|⍵)∨(0=4|⍵)∧0≠100|⍵}
leap 1900 2000 2023 2024
+/leap 1900+⍳100
