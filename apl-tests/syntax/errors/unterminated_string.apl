x←'hello
