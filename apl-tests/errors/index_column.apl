⍝ a column index past the last column
⍝! INDEX ERROR
m←3 3⍴⍳9
m[;4]
