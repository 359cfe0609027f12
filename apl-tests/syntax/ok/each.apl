⍴¨x y
