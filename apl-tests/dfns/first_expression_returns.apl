⍝ the first statement that is neither an assignment nor a false guard gives the result; later lines do not run
⍝> 2
f←{a←⍵+1 ⋄ a ⋄ 1÷0}
f 1
