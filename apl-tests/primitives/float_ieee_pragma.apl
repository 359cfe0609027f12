⍝ aplc: float ieee
⍝ The IEEE float mode (this pragma, or --float ieee): results that are not finite real numbers flow on as ∞, ¯∞ and
⍝ NaN instead of stopping with a DOMAIN ERROR, on every backend. 0÷0 is still 1 (APL's rule).
⍝ Worked by hand: 1e308×10 overflows to ∞ and ¯1e308×10 to ¯∞; ÷0 is ∞ and ÷1 is 1; ⍟0 is ¯∞; ∞-∞ and ¯∞-¯∞ are NaN;
⍝ a sum holding both ∞ and ¯∞ is NaN in any order; *1000 (e to the 1000) overflows to ∞.
⍝> ∞ ¯∞ 10 0
⍝> ∞ 1
⍝> ¯∞
⍝> NaN NaN 0 0
⍝> NaN
⍝> 1
⍝> ∞
x←1e308 ¯1e308 1 0
x×10
÷0 1
⍟0
(x×10)-x×10
+/x×10
0÷0
*1000
