const x = 1e309;
