SELECT 1.5, .5, 1., 1e3, 1.5E-3, 12345678901234567890123;
SELECT 'it''s', E'a\nb\'c\\d\x41', '', TRUE, FALSE, NULL;
SELECT (a).b, f(x).y, (t.s).f.g, t.window.start, "Quoted Col", `back tick`, "a""b";
SELECT count(DISTINCT a), sum(ALL b), f(), now(), coalesce(a, b, c), count(*);
SELECT left(s, 3), right(s, 2), date(ts), timestamp(x), if(a, b, c), first(x), last(y), struct(a, b)