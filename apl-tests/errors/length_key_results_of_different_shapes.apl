⍝ f⌸ needs results of one shape (Dyalog would pad them; aplc reports it): key a has the rows 1 2 and 5 6, whose row
⍝ sums are 2 items; key b has one row, 1 item.
⍝! LENGTH ERROR at 4:6
'aba'{+/⍵}⌸3 2⍴⍳6
