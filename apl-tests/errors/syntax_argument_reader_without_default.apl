⍝ ⎕ArgInt and ⎕ArgDouble take the default that stands in for a missing argument on their left; called monadically
⍝ they are refused at compile time.
⍝! SYNTAX ERROR
⎕ArgInt 1
