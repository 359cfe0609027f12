¯x
