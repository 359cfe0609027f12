⍝ f@g with a g that gives 0s and 1s as integers (2∘| gives residues): the items where it gives 1 are replaced.
⍝ Checked by hand: 2|⍳6 is 1 0 1 0 1 0, so 1 3 5 become 10 30 50.
⍝> 10 2 30 4 50 6
{⍵×10}@(2∘|)⍳6
