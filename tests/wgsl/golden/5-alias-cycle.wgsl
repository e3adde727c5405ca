alias A = B;
alias B = A;
