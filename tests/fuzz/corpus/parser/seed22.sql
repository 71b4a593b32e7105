SELECT a % b / c * d - e + f;
SELECT -a + b, - 5, -9223372036854775808, +1, -(2), - -3, -1.5e3;
SELECT a || b = c, 'x' || 1 + 2;
SELECT NOT a = b AND c OR d, a AND NOT b, NOT NOT a;
SELECT a = 1 OR b <> 2 OR c != 3 AND d <= 4 AND e >= 5 AND f < 6 AND g > 7