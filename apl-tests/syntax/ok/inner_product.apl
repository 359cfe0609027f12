A+.×B
