a←b←3
