twice←{⍺⍺ ⍺⍺ ⍵}
compose←{⍺⍺ ⍵⍵ ⍵}
