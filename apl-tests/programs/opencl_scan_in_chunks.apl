⍝ A scan longer than one chunk (4096 elements), of a length known only at run time (N←10000 ⎕ArgInt 1: 10000
⍝ without arguments): a test of the length chooses the running scan (one chunk or less) or the parallel scan in
⍝ chunks (src/lower/scan.rs). The chunks' totals and the scan from each chunk's prefix are parallel maps, a kernel
⍝ each on the OpenCL backend; the exclusive prefix of the totals runs on the host between them, so the totals come
⍝ back to the host once (the first copy), and the result once more for the print (the second).
⍝ By hand: +\⍳N ends at N(N+1)÷2 = 50005000.
⍝# mem parallel-maps 2
⍝# mem sequential-loops 3
⍝# opencl kernels 2
⍝# opencl copies-to-host 2
⍝# opencl copies-to-host-in-loops 0
⍝> 50005000
N←10000 ⎕ArgInt 1
v←+\⍳N
⎕←v[N]
