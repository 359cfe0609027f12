⍝ a nested matrix can be computed with, but not shown: Dyalog's layout of nested matrices is not implemented
⍝! NONCE ERROR at 4:1
x←2 2⍴⊂1 2
2 2⍴⊂1 2
