/* leading */ SELECT /* nested /* comment */ here */ 2;
SELECT foo FROM;
SELEC 1;
SELECT 1; SELEC 2;
SELECT 1 +