⍝ catenating int and double vectors gives a double vector that still prints integral items plainly
⍝> 1 2 3 4.5
⍝> 4
⍝> 10.5
(1 2 3),4.5
≢(1 2 3),4.5
+/(1 2 3),4.5
