⍝ ⌷ past the end
⍝! INDEX ERROR at 3:2
4⌷1 2 3
