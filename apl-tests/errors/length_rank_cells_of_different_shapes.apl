⍝ f⍤k needs results of one shape (Dyalog would pad them; aplc reports it): the first row's result has 1 item, the
⍝ second row's 2.
⍝! LENGTH ERROR at 4:2
({⍵[1]↑⍵}⍤1)2 2⍴1 2 2 3
