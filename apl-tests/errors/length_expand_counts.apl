⍝ Expand takes one item of the right argument for each positive count: two positive counts and three items.
⍝! LENGTH ERROR
2 1\4 5 6
