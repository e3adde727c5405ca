const résumé = 1;
const Ångström = 2;
