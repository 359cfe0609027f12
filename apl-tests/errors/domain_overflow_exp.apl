⍝ *1000 (e to the 1000th) overflows to ∞: a DOMAIN ERROR, while *700 (about 1.0142E304) is a number.
⍝> 1.014232055E304
⍝! DOMAIN ERROR
⎕←*700
*1000
