#!/usr/bin/env bash
# The web UI in headless Chromium: the page lists the running query and draws
# the six charts of its recent progress as SVG (with lines, bars, axes); the
# embedded files are the files of server/ui/ byte for byte (embed.sh), nothing
# is loaded from elsewhere, and with http_token set the page asks for the
# token and the sign-in form's cookie opens it. Takes a screenshot too:
# HTTP_UI_SCREENSHOT=docs/ui-screenshot.png refreshes the committed one.
set -u
cd "$(dirname "$0")/../.."
source tests/lib.sh
source tests/integration/http_lib.sh

T=$(mktemp -d)
trap 'stop_daemon >/dev/null 2>&1; rm -rf "$T"' EXIT
command -v chromium >/dev/null || fail "chromium is missing (Debian package chromium; make deps)"

# browse URL ARGS... : headless Chromium with a fresh profile (5 s of virtual time).
browse() {
    local url=$1; shift
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$T")" \
        --virtual-time-budget=5000 "$@" "$url" 2>>"$T/chromium.log"
}

echo "-- embed.sh: every byte value survives, bad names are refused"
awk 'BEGIN { for (i = 0; i < 256; i++) printf "%c", i }' > "$T/bytes.svg"
[ "$(wc -c < "$T/bytes.svg")" = 256 ] || fail "could not write the 256-byte file"
sh server/ui/embed.sh "$T/bytes.svg" server/ui/index.html > "$T/assets.c" || fail "embed.sh failed"
cat > "$T/main.c" <<'EOF'
#include <stdio.h>
extern const struct { const char *path; const char *type; const unsigned char *data; unsigned int len; } http_ui_assets[];
extern const int http_ui_nassets;
int main(void)
{
    if (http_ui_nassets != 2 || http_ui_assets[2].path) return 2;
    printf("%s %s\n", http_ui_assets[0].path, http_ui_assets[0].type);
    return fwrite(http_ui_assets[0].data, 1, http_ui_assets[0].len, stderr) != 256;
}
EOF
cc -std=c11 -Wall -Wextra -Werror -o "$T/assets" "$T/main.c" "$T/assets.c" || fail "embed.sh output does not compile"
[ "$("$T/assets" 2>"$T/bytes.out")" = "/bytes.svg image/svg+xml" ] || fail "embedded path or type"
cmp -s "$T/bytes.svg" "$T/bytes.out" || fail "embedded bytes differ from the file"
echo x > "$T/a.txt"
sh server/ui/embed.sh "$T/a.txt" > /dev/null 2>&1 && fail "embed.sh took a .txt file"

start_daemon "$T/d" || fail "daemon did not start"
http_up
sql -c "CREATE STREAM s USING rate OPTIONS (rowsPerSecond '500');" \
    -c "CREATE QUERY ui_counts OUTPUT MODE update AS SELECT window, count(*) AS n FROM s
        WATERMARK timestamp DELAY OF INTERVAL '2 seconds' GROUP BY window(timestamp, '5 seconds');" \
    || fail "CREATE QUERY"
batches() { curl -s "$H/api/v1/queries/ui_counts" > "$T/q" && [ "$("$JSON_TOOL" get "$T/q" lastBatchId)" -ge "$1" ] 2>/dev/null; }
wait_for 60 batches 4 || fail "ui_counts did not run 5 batches"

echo "-- the served files are server/ui/ byte for byte, with a strict CSP, nothing external"
for f in server/ui/*.html server/ui/*.js server/ui/*.css server/ui/*.svg; do
    req GET "/$(basename "$f")"
    expect 200 "GET /$(basename "$f")"
    cmp -s "$f" "$T/body" || fail "/$(basename "$f") differs from $f"
    grep -Eo "(src|href)=\"https?://[^\"]*|url\\(https?:|fetch\\(['\"]https?:" "$f" && fail "$f loads from elsewhere"
done
req GET /
expect 200 "GET /"
cmp -s server/ui/index.html "$T/body" || fail "/ is not index.html"
[ "$(header Content-Type)" = "text/html; charset=utf-8" ] || fail "/ Content-Type"
header Content-Security-Policy | grep -q "script-src 'self'" || fail "no CSP on /"
req GET /app.js
[ "$(header Content-Type)" = "text/javascript; charset=utf-8" ] || fail "app.js Content-Type"

echo "-- headless Chromium: the query and its charts"
browse "$H/#query=ui_counts" --dump-dom > "$T/dom.html" || fail "chromium --dump-dom failed: $(tail -5 "$T/chromium.log")"
grep -q 'data-name="ui_counts"' "$T/dom.html" || fail "the query list does not show ui_counts"
grep -q '<h1 id="d-name">ui_counts</h1>' "$T/dom.html" || fail "the detail does not show ui_counts"
for c in rates input-rows batch-duration operation-duration state-rows watermark; do
    grep -q "<svg class=\"chart\" id=\"chart-$c\"" "$T/dom.html" || fail "no chart $c"
done
# every chart drew data: lines (path.line) or bars (rect.bar), axes and tick labels
chart() { sed -n "s/.*\\(<svg class=\"chart\" id=\"chart-$1\".*\\)/\\1/p" "$T/dom.html" | sed 's/<\/svg>.*//'; }
for c in rates batch-duration state-rows watermark; do
    chart "$c" | grep -q '<path class="line c' || fail "chart $c has no line"
done
for c in input-rows operation-duration; do
    chart "$c" | grep -q '<rect class="bar c' || fail "chart $c has no bars"
done
for c in rates input-rows batch-duration operation-duration state-rows watermark; do
    chart "$c" | grep -q 'class="axis"' || fail "chart $c has no axis"
    [ "$(chart "$c" | grep -o '<text' | wc -l)" -ge 4 ] || fail "chart $c has no tick labels"
done
chart rates | grep -q 'Input rate' || fail "rates chart has no legend"
grep -q 'data-state="live"' "$T/dom.html" || fail "the page is not live: $(grep -o 'live-text">[^<]*' "$T/dom.html")"

echo "-- screenshot"
shot=${HTTP_UI_SCREENSHOT:-$T/ui.png}
browse "$H/#query=ui_counts" --screenshot="$shot" --window-size=1280,900 > /dev/null || fail "screenshot failed"
[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "screenshot is not a PNG"
[ "$(wc -c < "$shot")" -gt 20000 ] || fail "screenshot is suspiciously small"
stop_daemon || fail "daemon did not stop cleanly"

echo "-- with http_token: the sign-in page, then the cookie opens the UI"
mv "$T/d/log" "$T/d/log.1"
start_daemon "$T/d" -c http_token=ui-secret || fail "daemon did not start"
http_up
req GET /
expect 401 "GET / without a token"
grep -q 'action="/login"' "$T/body" || fail "the 401 page is not the sign-in form"
header WWW-Authenticate | grep -q '^Bearer' || fail "401 page without WWW-Authenticate"
req GET /app.js
expect 401 "GET /app.js without a token"
req POST /login -d 'token=wrong'
expect 401 "sign-in with a wrong token"
grep -q 'login-error' "$T/body" || fail "no message for a wrong token"
req POST /login -d 'token=ui-secret'
expect 303 "sign-in with the token"
[ "$(header Location)" = / ] || fail "sign-in does not go back to /"
cookie=$(header Set-Cookie)
case "$cookie" in "sluice_token=ui-secret; "*SameSite=Strict*) ;; *) fail "cookie: $cookie" ;; esac
req GET / -b "sluice_token=ui-secret"
expect 200 "GET / with the cookie"
req GET /app.js -b "sluice_token=ui-secret"
expect 200 "GET /app.js with the cookie"
req GET / -b "sluice_token=wrong"
expect 401 "GET / with a wrong cookie"
req GET /api/v1/queries -b "sluice_token=ui-secret"
expect 401 "the API does not take the cookie"
browse "$H/" --dump-dom > "$T/login.html" || fail "chromium on the sign-in page"
grep -q 'name="token"' "$T/login.html" || fail "chromium did not render the sign-in form"
stop_daemon || fail "daemon did not stop cleanly"
echo "http_ui: ok"
