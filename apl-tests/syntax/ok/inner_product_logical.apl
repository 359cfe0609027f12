A∧.=B
