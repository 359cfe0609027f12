⍝ Program arguments are numbered from 1 (⎕IO): argument 0 is an INDEX ERROR when the program runs, on every backend.
⍝! INDEX ERROR
i←0
5 ⎕ArgInt i
