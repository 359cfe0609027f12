⍝ The system variables whose one value aplc compiles with read as Dyalog's defaults, and assigning that value is
⍝ accepted (scripts often set them first): ⎕IO 1, ⎕CT 1E¯14, ⎕ML 1, ⎕FR 645. With ⎕CT 1E¯14, 1 and 1+1E¯15
⍝ are tolerantly equal (the relative difference 1E¯15 is below it) while 1 and 1+1E¯13 are not.
⍝> 1
⍝> 1E¯14
⍝> 1
⍝> 645
⍝> 1 0
⎕IO←1 ⋄ ⎕CT←1E¯14 ⋄ ⎕ML←1 ⋄ ⎕FR←645
⎕IO
⎕CT
⎕ML
⎕FR
(1=1+1E¯15),1=1+1E¯13
