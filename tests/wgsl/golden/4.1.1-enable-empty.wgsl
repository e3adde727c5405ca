enable ;
