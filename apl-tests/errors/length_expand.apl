⍝ expand needs as many ones in the mask as items in the argument
⍝! LENGTH ERROR
1 0 1\1 2 3
