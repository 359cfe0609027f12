⍝ ⍳ and ∊ on doubles compare tolerantly (⎕CT 1e¯14); vectors of more than 16 items are searched sorted, in the
⍝ window of 2⎕CT×|x| around each x (src/lower/search.rs). Checked by hand:
⍝ - x is 0.1 0.2 … 4: 0.3 is item 3 although 0.1×3 is 0.30000000000000004; 0.1 is 1, 4 is 40; 4.05 and 0 are
⍝   absent (41); 0.1+0.2 is a member;
⍝ - y is 0.5 0.25 repeated 20 times, then ÷3: the first 0.25 is item 2, the first 0.5 item 1, ÷3 and 1÷3 item 41;
⍝   3×÷3 is tolerantly 1, a member of 1 2 1 2 …;
⍝ - z is twenty 0s then twenty ¯0.5s: ¯0.5 first at 21, 0 at 1, 1 absent (41);
⍝ - 1+1e¯15 is tolerantly 1, 1+1e¯10 is not;
⍝ - tiny numbers keep their relative tolerance: 1e¯300 and 3e¯300 are items 1 and 3 of 1e¯300×⍳30, 0 is absent.
⍝> 3 1 40 41 41
⍝> 1
⍝> 2 41 1 41
⍝> 1
⍝> 21 1 41
⍝> 1
⍝> 0
⍝> 1 3 31
x←0.1×⍳40
x⍳0.3 0.1 4 4.05 0
(0.1+0.2)∊x
y←(40⍴0.5 0.25),÷3
y⍳0.25 (÷3) 0.5 (1÷3)
(3×÷3)∊40⍴1 2
z←(20⍴0),(20⍴¯0.5)
z⍳¯0.5 0 1
(1+1e¯15)∊50⍴1
(1+1e¯10)∊50⍴1
(1e¯300×⍳30)⍳1e¯300 3e¯300 0
