# Differential test data: prints the INSERT statements that fill the tables
# of schema.sql, identically for PostgreSQL and sluice. Deterministic
# (Park-Miller generator, fixed seed), plain POSIX awk: awk -f data.awk

function rnd(n) { seed = (seed * 16807) % 2147483647; return seed % n }
function maybe_null(pct, v) { return rnd(100) < pct ? "NULL" : v }
function q(s) { return "'" s "'" }

# days since 1970-01-01 to yyyy-mm-dd (proleptic Gregorian)
function civil(z,    era, doe, yoe, y, doy, mp, d, m) {
    z += 719468
    era = int(z / 146097); doe = z - era * 146097
    yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
    y = yoe + era * 400; doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
    mp = int((5 * doy + 2) / 153); d = doy - int((153 * mp + 2) / 5) + 1
    m = mp < 10 ? mp + 3 : mp - 9
    return sprintf("%04d-%02d-%02d", y + (m <= 2), m, d)
}
# integer hundredths (or thousandths) as a signed decimal literal
function fixed(c, scale,    a, p) {
    a = c < 0 ? -c : c; p = scale == 2 ? 100 : 1000
    return sprintf("%s%d.%0" scale "d", c < 0 ? "-" : "", int(a / p), a % p)
}
function flush(table, cols) {
    if (nrows) print "INSERT INTO " table (cols == "" ? "" : " " cols) " VALUES\n" rows ";"
    rows = ""; nrows = 0
}
function add(table, cols, values) {
    rows = rows (nrows ? ",\n" : "") "  (" values ")"
    if (++nrows == 50) flush(table, cols)
}

function orders(    i, v, day, sec, frac, ts) {
    split("new,paid,shipped,cancelled,,Paid,returned", st, ",")
    for (i = 1; i <= 400; i++) {
        v = i
        v = v ", " maybe_null(3, 1 + rnd(48))
        v = v ", " maybe_null(8, rnd(61) - 10)
        v = v ", " maybe_null(7, fixed(rnd(200001) - 20000, 2))
        v = v ", " maybe_null(7, sprintf("%.0f", (rnd(2000001) - 1000000) * 1000003))
        v = v ", " maybe_null(8, fixed((rnd(4001) - 400) * 25, 2))
        v = v ", " (rnd(8) == 7 ? "NULL" : q(st[1 + rnd(7)]))
        v = v ", " (rnd(3) == 0 ? "NULL" : rnd(2) ? "true" : "false")
        day = 19358 + rnd(730)                  # 2023-01-01 + up to two years
        v = v ", " maybe_null(5, q(civil(day)))
        sec = rnd(86400); frac = rnd(4)
        ts = sprintf("%s %02d:%02d:%02d", civil(day), int(sec / 3600), int(sec / 60) % 60, sec % 60)
        if (frac == 1) ts = ts ".5"
        if (frac == 2) ts = ts sprintf(".%06d", rnd(1000000))
        v = v ", " maybe_null(5, q(ts))
        add("orders", "", v)
    }
    flush("orders", "")
}

function customers(    c, v, n) {
    split("Oslo,Lima,Pune,,Kyiv,Quito,Oslo", city, ",")
    n = 0
    for (c = 1; c <= 40; c++) {
        if (c == 7 || c == 19 || c == 33) continue   # orders of these find no customer
        customer(c, ++n)
        if (c == 5 || c == 12) customer(c, ++n)     # duplicate keys
    }
    customer("NULL", ++n); customer("NULL", ++n)
    customer(60, ++n); customer(61, ++n); customer(62, ++n)  # no orders
    flush("customers", "")
}
function customer(c, n,    v) {
    v = c ", " q("cust_" n)
    v = v ", " (rnd(7) == 6 ? "NULL" : q(city[1 + rnd(7)]))
    v = v ", " maybe_null(10, 1 + rnd(4))
    v = v ", " maybe_null(10, fixed(rnd(2000000) - 500000, 3))
    v = v ", " (rnd(5) == 0 ? "NULL" : rnd(3) ? "true" : "false")
    v = v ", " maybe_null(10, q(civil(17000 + rnd(2000))))
    add("customers", "", v)
}

function tv(    i, a, c, x, y, b, n) {
    split("true,false,NULL", b, ","); split("1,2,NULL", n, ",")
    i = 0
    for (a = 1; a <= 3; a++) for (c = 1; c <= 3; c++) for (x = 1; x <= 3; x++) for (y = 1; y <= 3; y++)
        add("tv", "", ++i ", " b[a] ", " b[c] ", " n[x] ", " n[y] ", " \
            (x == 3 ? "NULL" : q(x == 1 ? "a" : "b")) ", " (y == 3 ? "NULL" : q(y == 1 ? "a" : "b")))
    flush("tv", "")
}

function words(    w, k, i) {
    k = split("Hello World|hello world|HELLO|abc|abcdef|a|||  padded  |100%|under_score|a_c|abc%|" \
              "x|xyz|Zebra|zebra|apple|Apple|banana|cherry|a b c|tab\there|quote''s|naïve|héllo|日本語|" \
              "mixed CASE Words|trailing |NULL|NULL|repeat|repeat|repeat|0123456789|-5|3.14|true", w, "|")
    for (i = 1; i <= k; i++)
        add("words", "(id, w, n)", i ", " (w[i] == "NULL" ? "NULL" : q(w[i])) ", " (i % 5 == 0 ? "NULL" : i % 7 - 3))
    flush("words", "(id, w, n)")
}

BEGIN { seed = 20240501; orders(); customers(); tv(); words() }
