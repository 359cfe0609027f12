x←‘abc’
