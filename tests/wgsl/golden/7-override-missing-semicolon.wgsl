override x = 1
