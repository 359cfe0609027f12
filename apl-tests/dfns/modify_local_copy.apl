⍝ x f← and x[i]← inside a dfn on a name the dfn assigned itself (a local) change only the local: acc←acc makes the
⍝ local copy, so the global acc stays 0. Checked by hand: 0+5 is 5; 3 4 with its first item set to 0 is 0 4.
⍝> 5
⍝> 0
⍝> 0 4
acc←0
f←{acc←acc ⋄ acc+←⍵ ⋄ acc}
f 5
acc
g←{v←⍵ ⋄ v[1]←0 ⋄ v}
g 3 4
