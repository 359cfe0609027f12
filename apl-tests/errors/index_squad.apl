⍝ ⌷ past the end
⍝! INDEX ERROR
4⌷1 2 3
