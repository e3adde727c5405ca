var<private> x = ;
