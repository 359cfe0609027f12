'a'⍷'abc'
