⍝ An axis beyond the argument's rank is an INDEX ERROR (Dyalog: AXIS ERROR).
⍝! INDEX ERROR
m←2 3⍴⍳6
⌽[3]m
