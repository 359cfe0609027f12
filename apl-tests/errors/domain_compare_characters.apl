⍝ Of the scalar functions only = and ≠ take characters; < ≤ ≥ > on them are a DOMAIN ERROR, as in Dyalog.
⍝! DOMAIN ERROR at 4:6
'abc'='abd'
'abc'<'abd'
