x←
