'hello, world'
