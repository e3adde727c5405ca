alias T = ;
