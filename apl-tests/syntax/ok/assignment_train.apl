mean←(+/÷≢)
