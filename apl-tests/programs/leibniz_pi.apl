⍝ the Leibniz series for pi with 1000 terms: 4×+/(¯1*k)÷1+2×k for k = 0..999
⍝ python3: 3.140592653839793 (error about 1÷1000); 10 significant digits: 3.140592654
⍝> 3.140592654
k←0,⍳999
4×+/(¯1*k)÷1+2×k
