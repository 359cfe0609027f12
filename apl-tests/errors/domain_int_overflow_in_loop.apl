⍝ An int overflow inside a loop over an array (in compiled code a vectorised loop, whose overflow checks are tested
⍝ after it) stops the program where APL does: at the statement that computes w, before the next line prints. The
⍝ element that overflows is the last of 1001.
⍝> 1000
⍝! DOMAIN ERROR
v←(1000⍴1),9223372036854775807
⎕←+/1000↑v
w←v+1
⎕←'not printed'
+/w
