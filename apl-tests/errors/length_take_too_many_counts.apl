⍝ ↑ with more counts than its right argument has axes is a LENGTH ERROR, as in Dyalog.
⍝! LENGTH ERROR at 4:6
M←2 2⍴⍳4
2 3 4↑M
