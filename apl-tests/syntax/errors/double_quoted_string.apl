"text"
