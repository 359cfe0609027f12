x]
