⍝ A matrix with fewer rows than columns has no inverse (Dyalog: LENGTH ERROR).
⍝! LENGTH ERROR at 3:1
⌹2 3⍴⍳6
