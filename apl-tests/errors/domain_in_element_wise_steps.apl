⍝ An error inside a ⍣ of element-wise steps that run strip by strip (src/loops/passes/step_interchange.rs) still
⍝ points at its primitive: element 300 of ⍳600 divides by 300-300 = 0 in the first step (the ÷ at column 8 of line
⍝ 8). No other element ever fails: x+1÷x-300 = 300 would need (x-300)+1÷(x-300) = 0, which no real x satisfies, so
⍝ there is one error to report whatever the order of the steps.
⍝! DOMAIN ERROR at 8:8
N←600 ⎕ArgInt 1
K←3 ⎕ArgInt 2
y←({⍵+1÷⍵-300}⍣K) ⍳N
⎕←+/y
