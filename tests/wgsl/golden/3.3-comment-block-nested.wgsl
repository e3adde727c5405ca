/* outer /* inner */ still outer */ const a = 1;
