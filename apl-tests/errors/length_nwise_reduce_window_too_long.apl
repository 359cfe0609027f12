⍝ A window longer than the axis plus one has no place: LENGTH ERROR.
⍝! LENGTH ERROR at 3:2
5+/1 2 3
