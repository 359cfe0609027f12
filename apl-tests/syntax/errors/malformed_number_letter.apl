3x
