⍝ a scan of an empty vector is empty (an empty line); its length is 0
⍝>
⍝> 0
+\⍳0
≢+\⍳0
