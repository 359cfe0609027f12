⍝ overtaking a character vector pads with blanks (brackets make the blanks visible)
⍝> [ab   ]
⍝> [  ab]
⍝> hel
'[',(5↑'ab'),']'
'[',(¯4↑'ab'),']'
3↑'hello'
