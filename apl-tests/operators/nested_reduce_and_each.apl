⍝ Idioms on nested vectors from split rows and strands of words, as Dyalog shows them. Checked by hand:
⍝ - the rows of 3 4⍴⍳12 are 1…4, 5…8, 9…12: sums 10 26 42, first items 1 5 9;
⍝ - a reduction whose function returns vectors encloses its fold: {⍺,'-',⍵}/'a' 'b' 'c' is ⊂'a-b-c', shown after
⍝   a blank (the strand of three characters is the simple vector 'abc');
⍝ - 2⊃¨ picks the second item of each: 2 4; ⊂'abc' matches the first word only: 1 0;
⍝ - the word lengths 5 3 4 reshape '*' into three bars; ↑ pads the words to 5 and ⌽ reverses each row (the blanks
⍝   of 'fig  ' and 'kiwi ' come first); the lengths sum to 12; ' ',¨ then ∊ joins the words with blanks, and 1↓
⍝   drops the first.
⍝> 10 26 42
⍝> 1 5 9
⍝>  a-b-c
⍝> 2 4
⍝> 1 0
⍝>  *****  ***  ****
⍝> elppa
⍝>   gif
⍝>  iwik
⍝> 12
⍝>  apple fig kiwi
⍝> apple fig kiwi
m←3 4⍴⍳12
+/¨↓m
⊃¨↓m
{⍺,'-',⍵}/'a' 'b' 'c'
2⊃¨(1 2)(3 4)
(⊂'abc')≡¨'abc' 'def'
x←'apple' 'fig' 'kiwi'
(≢¨x)⍴¨'*'
⌽↑x
+/∊≢¨x
∊' ',¨x
1↓∊' ',¨x
