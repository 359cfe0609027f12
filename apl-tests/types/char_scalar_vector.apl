⍝ 'a' is a character scalar (empty shape), 'ab' a 2-vector
⍝>
⍝> 2
⍝> ab12
⍝> 1
⍴'a'
⍴'ab'
'ab',⍕12
'a'='a'
