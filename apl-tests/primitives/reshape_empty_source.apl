⍝ reshaping an empty array fills with its prototype: 0 for numbers, blank for characters
⍝> 0 0 0
⍝> [   ]
3⍴⍳0
'[',(3⍴''),']'
