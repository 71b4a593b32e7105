// ui_click: drives the web UI in headless Chromium over the DevTools
// protocol (on a pipe: no package needed) for the HTTP tests.
//
//   node tests/tools/ui_click.mjs URL BUTTON_ID EXPECT [BUTTON_ID EXPECT ...]
//
// Loads URL; for each pair, waits until the query's detail is shown and the
// button is enabled, clicks it, and waits until the page's toast says something. Prints each
// toast on a line; exits 0 when every toast contains its EXPECT text, 1
// otherwise (or after 60 s). CHROMIUM names the browser (default chromium).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [url, ...steps] = process.argv.slice(2);
if (!url || steps.length === 0 || steps.length % 2) {
  console.error('usage: ui_click.mjs URL BUTTON_ID EXPECT [BUTTON_ID EXPECT ...]');
  process.exit(2);
}
const profile = mkdtempSync(join(tmpdir(), 'ui-click-'));
const browser = spawn(process.env.CHROMIUM || 'chromium', [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
  `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];

let nextId = 1, pending = new Map(), buffered = '';
fromBrowser.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  let end;
  while ((end = buffered.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    const p = msg.id && pending.get(msg.id);
    if (!p) continue;
    pending.delete(msg.id);
    if (msg.error) p.reject(new Error(msg.error.message));
    else p.resolve(msg.result);
  }
});

function send(method, params = {}, sessionId) {
  const id = nextId++;
  toBrowser.write(JSON.stringify({ id, method, params, sessionId }) + '\0');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Evaluates `expr` in the page until it gives a non-empty value.
async function until(session, expr, what) {
  const deadline = Date.now() + 20000;
  for (;;) {
    const r = await send('Runtime.evaluate', { expression: expr, returnByValue: true }, session);
    if (r.result && r.result.value) return r.result.value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function main() {
  const { targetId } = await send('Target.createTarget', { url });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  let ok = true;
  for (let i = 0; i < steps.length; i += 2) {
    const [button, expect] = [steps[i], steps[i + 1]];
    const b = `document.getElementById(${JSON.stringify(button)})`;
    // the buttons start enabled in the HTML: wait for the query's detail to be drawn
    await until(sessionId, `(!document.getElementById('detail').hidden && ${b} && !${b}.disabled) || false`,
      `${button} to be enabled`);
    await send('Runtime.evaluate', {
      expression: `document.getElementById('toast').hidden = true; ${b}.click(); true`,
    }, sessionId);
    const t = await until(sessionId,
      "(!document.getElementById('toast').hidden && document.getElementById('toast').textContent) || ''",
      `the toast after ${button}`);
    console.log(t);
    if (!t.includes(expect)) ok = false;
  }
  return ok;
}

const timer = setTimeout(() => { console.error('ui_click: timed out'); finish(1); }, 60000);
// Kills the browser, and removes its profile once it has exited.
function finish(code) {
  clearTimeout(timer);
  const done = () => {
    try { rmSync(profile, { recursive: true, force: true }); } catch { /* left in tmp */ }
    process.exit(code);
  };
  if (browser.exitCode !== null || browser.signalCode !== null) return done();
  browser.once('exit', done);
  browser.kill('SIGKILL');
}
main().then((ok) => finish(ok ? 0 : 1), (e) => { console.error('ui_click:', e.message); finish(1); });
