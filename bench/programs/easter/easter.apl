⍝ easter: Easter Sunday (Gregorian computus, the anonymous "Meeus/Jones/Butcher" algorithm) for the years 1..Y, the
⍝ whole vector repeated R times; prints the sum of month×100+day over all R×Y dates.
⍝ Checked by hand: year 1 gives a=1 b=0 c=1 d=e=f=g=0 h=4 i=0 k=1 l=6 m=0 t=124, i.e. April 1, so Y←1 R←1 prints
⍝ 401; the same algorithm gives 2000-04-23, 2024-03-31 and 2025-04-20, and easter.py agrees with python-dateutil's
⍝ easter() over 1583..3000. easter.c and easter.py print the same at all sizes.
Y←3000 ⎕ArgInt 1
R←300 ⎕ArgInt 2
years←(R×Y)⍴⍳Y
a←19|years
b←⌊years÷100
c←100|years
d←⌊b÷4
e←4|b
f←⌊(b+8)÷25
g←⌊(1+b-f)÷3
h←30|15+(19×a)+b-d+g
i←⌊c÷4
k←4|c
l←7|32+(2×e)+(2×i)-h+k
m←⌊(a+(11×h)+22×l)÷451
t←h+l+114-7×m
month←⌊t÷31
day←1+31|t
⎕←+/(100×month)+day
