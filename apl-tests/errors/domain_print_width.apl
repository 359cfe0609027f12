⍝ ⎕PW takes Dyalog's values, 42 to 32767: 30 is a DOMAIN ERROR at the assignment.
⍝! DOMAIN ERROR at 3:1
⎕PW←30
⍳3
