1 2⊇'abc'
