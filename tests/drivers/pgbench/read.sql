\set id random(1, 3)
SELECT name, price, ts, dur, note FROM prices WHERE id = :id;
SELECT :x + 1, :id * 2;
