⍝ ⌈/ of integers whose axis turns out empty when the program runs: APL's answer is the smallest double, which the
⍝ integer result cannot hold, so aplc reports a DOMAIN ERROR instead of an integer that is not APL's answer.
⍝! DOMAIN ERROR at 5:1
x←3 1 4
⌈/(x>10)/x
