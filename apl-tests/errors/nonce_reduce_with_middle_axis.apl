⍝ An axis other than [1] on / (here the last axis of a matrix, which +/ already reduces) is not supported.
⍝! NONCE ERROR
m←2 3⍴⍳6
+/[2]m
