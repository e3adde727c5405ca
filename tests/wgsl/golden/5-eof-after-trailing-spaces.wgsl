const a = 1  
  