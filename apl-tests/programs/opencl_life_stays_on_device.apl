⍝ Conway's Game of Life by ⍣ on an 8×8 torus: on the OpenCL backend the board stays on the device through the steps.
⍝ No array comes back to the host inside either ⍣ (copies-to-host-in-loops 0): each step is one kernel that reads the
⍝ last board and writes the next, and the host only counts the steps. The one copy back (copies-to-host 1) is the
⍝ board printed after the first ⍣; the ∧/ at the end comes back as a reduction's partial results, not counted.
⍝ The 6 kernels: the glider board g from the outer products; the copy of g into the state of the first ⍣ (g is
⍝ still needed afterwards, so the loop cannot overwrite it); the Life step of the first ⍣ (all eight rotations and
⍝ the rule fused into one map over the 8×8 cells); the same copy and step for the second ⍣; and g=…, ∧/, fused into
⍝ one reduction.
⍝ By hand: the glider (1,2) (2,3) (3,1) (3,2) (3,3) moves one row down and one column right every 4 generations,
⍝ so after 8 it is at (3,4) (4,5) (5,3) (5,4) (5,5), not yet wrapped; after 32 it has moved 8 rows and 8 columns,
⍝ once around the torus each way, and is back where it started: 1
⍝# opencl kernels 6
⍝# opencl copies-to-host 1
⍝# opencl copies-to-host-in-loops 0
⍝> 0 0 0 0 0 0 0 0
⍝> 0 0 0 0 0 0 0 0
⍝> 0 0 0 1 0 0 0 0
⍝> 0 0 0 0 1 0 0 0
⍝> 0 0 1 1 1 0 0 0
⍝> 0 0 0 0 0 0 0 0
⍝> 0 0 0 0 0 0 0 0
⍝> 0 0 0 0 0 0 0 0
⍝> 1
I←⍳8
g←((I=1)∘.∧I=2)∨((I=2)∘.∧I=3)∨(I=3)∘.∧I≤3
life←{
  n←(1⊖⍵)+(¯1⊖⍵)+(1⌽⍵)+(¯1⌽⍵)+(1⊖1⌽⍵)+(1⊖¯1⌽⍵)+(¯1⊖1⌽⍵)+¯1⊖¯1⌽⍵
  (n=3)∨⍵∧n=2
}
(life⍣8)g
∧/,g=(life⍣32)g
