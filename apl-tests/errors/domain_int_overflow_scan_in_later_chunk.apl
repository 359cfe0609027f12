⍝ An int +\ longer than one chunk stops with a DOMAIN ERROR at the scan when a prefix in a later chunk does not fit:
⍝ 4.7E18 then 5000 zeros fit, then 4.7E18+2.3E18 and +2.3E18 more (9.3E18 > 2*63) do not.
⍝! DOMAIN ERROR at 5:3
w←(4700000000000000000),(5000⍴0),(2⍴2300000000000000000)
s←+\w
s[5000]
