SELECT 1 +   ;
SELECT 1 +;;
SELECT 'abc;
SELECT 'é' || 'abc;
SELECT /* abc