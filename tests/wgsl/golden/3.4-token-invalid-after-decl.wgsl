const a = 1;
$
