⍝ the signal benchmark (thesis Ex. 3.1) at a size known only at run time (N←1000 ⎕ArgInt 1: 1000 without arguments),
⍝ as bench/programs/signal runs it. On the OpenCL backend the whole program is one kernel: diff, the division, the
⍝ clamps and ⍳N itself fuse into the reduction, each work-item folds one chunk, and nothing comes back to the host but
⍝ the chunks' partial results (which copies-to-host does not count).
⍝ By hand: diff 0,⍳N is N ones, so each item is 50÷(0.01+i), between ¯50 and 50 (50÷1.01 = 49.50...) and the sum is
⍝ 50×Σ 1÷(i+0.01) for i = 1..1000. With 1÷(i+0.01) = 1/i − 0.01/i² + 0.0001/i³ − ..., that is
⍝ 50×(H₁₀₀₀ − 0.01×1.6439345667 + 0.0001×1.2020564037 − 0.000001×1.0823232334 + ...)
⍝ = 50×(7.4854708606 − 0.0164393457 + 0.0001202056 − 0.0000010823 + 0.0000000104) = 50×7.4691506486
⍝ = 373.45753243; python3's double sum agrees; ⎕PP=10 prints 373.4575324
⍝# opencl kernels 1
⍝# opencl copies-to-host 0
⍝# opencl copies-to-host-in-loops 0
⍝> 373.4575324
N←1000 ⎕ArgInt 1
diff←{1↓⍵-¯1⌽⍵}
signal←{¯50⌈50⌊50×(diff 0,⍵)÷0.01+⍵}
⎕←+/signal ⍳N
