'ab' 'c'
