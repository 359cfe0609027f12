abc ∆x ⍙y _tmp x1 a¯b
