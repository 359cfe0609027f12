⍝ ≢ of an array needs only its length, which is known here (2), but APL computes the array first: (,0)[2 1] has no
⍝ element 2, an INDEX ERROR. Compiled code must evaluate an array whose elements may fail even when nothing reads them.
⍝! INDEX ERROR
≢{⍵+1}(,0)[2 1]
