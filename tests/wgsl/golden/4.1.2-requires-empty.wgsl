requires ;
