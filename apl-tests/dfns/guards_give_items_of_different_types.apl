⍝ f¨ on a vector known when compiling, where f's guards give results of different types for different items: f is
⍝ applied to each item on its own and the results make a nested vector (FizzBuzz with guards). Checked by hand:
⍝ 3 and 4 are above 2, so 1 2 'a' 'a' (a mixed simple vector: a blank beside each number, none between the two
⍝ characters);
⍝ FizzBuzz of 1…15: multiples of 3 are Fizz, of 5 Buzz, of both FizzBuzz; the items are 15, the third is ⊂'Fizz'
⍝ (shown after a blank); ¯3 0 4 give 'neg' 0 'pos'.
⍝> 1 2 aa
⍝> 1 2  Fizz  4  Buzz  Fizz  7 8  Fizz  Buzz  11  Fizz  13 14  FizzBuzz
⍝> 15
⍝>  Fizz
⍝>  neg  0  pos
{⍵>2:'a' ⋄ ⍵}¨⍳4
{0=15|⍵:'FizzBuzz' ⋄ 0=3|⍵:'Fizz' ⋄ 0=5|⍵:'Buzz' ⋄ ⍵}¨⍳15
r←{0=15|⍵:'FizzBuzz' ⋄ 0=3|⍵:'Fizz' ⋄ 0=5|⍵:'Buzz' ⋄ ⍵}¨⍳15
⍴r
r[3]
{⍵<0:'neg' ⋄ ⍵>0:'pos' ⋄ ⍵}¨¯3 0 4
