SELECT /* a /* b */ c;
SELECT "abc;
SELECT "";
SELECT `abc;
SELECT 123abc