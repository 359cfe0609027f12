⍝ An error inside a recursive function points at its primitive: 1÷⍵ on the second line of the dfn when the
⍝ recursion reaches ⍵=0 (column 10 of line 9); the first call prints 3 2 1 on the way down.
⍝> 3
⍝> 2
⍝> 1
⍝! DOMAIN ERROR at 9:10
n←3 ⎕ArgInt 1
f←{
    ⍵=0:1÷⍵
    ⎕←⍵
    1+f ⍵-1
}
f n
