/* sluice web UI: polls the REST API every second and draws the query list
 * and, for the chosen query, charts of its recent progress reports (as
 * Spark's Structured Streaming tab does) as hand-written SVG. No libraries,
 * nothing loaded from elsewhere. */
'use strict';

(function () {
  const POLL_MS = 1000;
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const W = 560, H = 210, M = { l: 58, r: 14, t: 12, b: 28 };
  const STATES = ['ACTIVE', 'STOPPED', 'FAILED', 'FINISHED'];
  const PHASES = ['addBatch', 'walCommit', 'commitOffsets', 'latestOffset', 'queryPlanning', 'getBatch'];

  let selected = decodeURIComponent((location.hash.match(/^#query=(.*)$/) || [])[1] || '');
  let lastList = [];
  let busy = false;

  /* ---------- small helpers ---------- */

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v; else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function token() {
    const m = document.cookie.match(/(?:^|;\s*)sluice_token=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : null;
  }

  async function api(path, method) {
    const headers = { Accept: 'application/json' };
    // the server refuses a POST that any web page could send (docs/security.md)
    if (method && method !== 'GET') headers['X-Sluice-Request'] = '1';
    const t = token();
    if (t) headers.Authorization = 'Bearer ' + t;
    const res = await fetch(path, { method: method || 'GET', headers, cache: 'no-store' });
    const body = await res.json().catch(() => null);
    if (!res.ok) {
      const err = new Error((body && body.error) || res.status + ' ' + res.statusText);
      err.status = res.status;
      throw err;
    }
    return body;
  }

  function fmtNum(v, digits) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    return Number(v).toLocaleString('en-US', { maximumFractionDigits: digits === undefined ? 1 : digits });
  }

  /* Compact axis labels: 950, 1.2k, 3.4M. */
  function fmtShort(v) {
    const a = Math.abs(v);
    if (a >= 1e9) return +(v / 1e9).toFixed(1) + 'G';
    if (a >= 1e6) return +(v / 1e6).toFixed(1) + 'M';
    if (a >= 1e4) return +(v / 1e3).toFixed(1) + 'k';
    if (a >= 100 || v === Math.round(v)) return String(Math.round(v * 10) / 10);
    return String(+v.toPrecision(3));
  }

  function fmtMs(ms) {
    if (ms === null || ms === undefined || !isFinite(ms)) return '–';
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    return Math.floor(ms / 60000) + ' min ' + Math.round((ms % 60000) / 1000) + ' s';
  }

  function fmtClock(ms) {
    const d = new Date(ms);
    return [d.getHours(), d.getMinutes(), d.getSeconds()].map((x) => String(x).padStart(2, '0')).join(':');
  }

  function parseTs(s) {
    const t = s ? Date.parse(s) : NaN;
    return isFinite(t) ? t : null;
  }

  function toast(msg, isError) {
    const t = $('toast');
    t.textContent = msg;
    t.className = 'toast' + (isError ? ' error' : '');
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
  }

  function setLive(state, text) {
    $('live').dataset.state = state;
    $('live-text').textContent = text;
  }

  /* ---------- the query list ---------- */

  function badge(state) {
    return el('span', { class: 'badge ' + (STATES.includes(state) ? state : '') }, state || '?');
  }

  function renderList(list) {
    const body = $('queries-body');
    body.replaceChildren();
    $('query-count').textContent = list.length === 1 ? '1 query' : list.length + ' queries';
    if (!list.length) {
      body.append(el('tr', { class: 'empty' }, el('td', { colspan: 9 },
        'No continuous queries yet. Create one with CREATE QUERY over the SQL endpoint.')));
      return;
    }
    for (const q of list) {
      const tr = el('tr', { class: 'query' + (q.name === selected ? ' selected' : ''), 'data-name': q.name },
        el('td', { class: 'name' }, q.name),
        el('td', null, badge(q.status)),
        el('td', { class: 'num' }, q.lastBatchId === null ? '–' : String(q.lastBatchId)),
        el('td', { class: 'num' }, fmtNum(q.inputRowsPerSecond)),
        el('td', { class: 'num' }, fmtNum(q.processedRowsPerSecond)),
        el('td', { class: 'mono' }, q.watermark || '–'),
        el('td', null, q.sink || '–'),
        el('td', null, q.trigger || '–'),
        el('td', { class: 'error', title: q.lastError || '' }, q.lastError || ''));
      tr.addEventListener('click', () => select(q.name));
      body.append(tr);
    }
  }

  function select(name) {
    selected = name;
    history.replaceState(null, '', '#query=' + encodeURIComponent(name));
    renderList(lastList);
    refresh();
  }

  /* ---------- the chosen query ---------- */

  function kpi(label, value, sub) {
    return el('div', { class: 'kpi' },
      el('div', { class: 'label' }, label),
      el('div', { class: 'value', title: value }, value),
      sub ? el('div', { class: 'sub' }, sub) : null);
  }

  function stateRows(p) {
    return (p.stateOperators || []).reduce((s, o) => s + (o.numRowsTotal || 0), 0);
  }

  function renderKpis(q, p) {
    const wm = p && p.eventTime && p.eventTime.watermark;
    const wmDelay = p && wm ? parseTs(p.timestamp) - parseTs(wm) : null;
    const hasState = p && p.stateOperators && p.stateOperators.length;
    $('kpis').replaceChildren(
      kpi('Latest batch', q.lastBatchId === null ? '–' : String(q.lastBatchId),
        p ? 'at ' + fmtClock(parseTs(p.timestamp)) : 'no batch yet'),
      kpi('Input rows/s', fmtNum(q.inputRowsPerSecond), p ? fmtNum(p.numInputRows, 0) + ' rows in the last batch' : ''),
      kpi('Processed rows/s', fmtNum(q.processedRowsPerSecond)),
      kpi('Batch duration', p ? fmtMs(p.batchDuration !== undefined ? p.batchDuration
        : (p.durationMs || {}).triggerExecution) : '–'),
      kpi('State rows', hasState ? fmtNum(stateRows(p), 0) : '–',
        hasState ? p.stateOperators.map((o) => o.operatorName).join(', ') : 'stateless'),
      kpi('Watermark', wm ? wm.slice(11, 23) : 'none',
        wm ? wm.slice(0, 10) + ' UTC · delay ' + fmtMs(wmDelay) : 'no event-time watermark'));
  }

  /* sluice's own progress member: sentences about the query's state. */
  function renderWarnings(p) {
    const list = (p && p.warnings) || [];
    $('d-warnings').hidden = list.length === 0;
    $('d-warnings').replaceChildren(...list.map((w) => el('li', null, w)));
  }

  function renderIds(q) {
    const item = (k, v) => el('div', null, el('dt', null, k), el('dd', null, v || '–'));
    $('d-ids').replaceChildren(item('id', q.id), item('runId', q.runId), item('sink', q.sink),
      item('output mode', q.outputMode), item('trigger', q.trigger), item('checkpoint', q.checkpoint));
  }

  function renderDetail(q, recent) {
    $('detail').hidden = false;
    $('d-name').textContent = q.name;
    const st = $('d-state');
    st.textContent = q.status.state;
    st.className = 'badge ' + q.status.state;
    $('d-message').textContent = q.status.message || '';
    $('btn-stop').disabled = busy || q.status.state !== 'ACTIVE';
    $('btn-start').disabled = busy || q.status.state === 'ACTIVE';
    renderIds(q);
    renderWarnings(q.lastProgress);
    renderKpis(q, q.lastProgress);
    if ($('d-sql').textContent !== q.definition) $('d-sql').textContent = q.definition || '';
    $('d-progress').textContent = q.lastProgress ? JSON.stringify(q.lastProgress, null, 2) : 'null (no trigger has run yet)';
    renderCharts(recent);
  }

  /* ---------- charts ---------- */

  /* About `count` round steps covering [0, max]. */
  function niceTicks(max, count) {
    if (!(max > 0)) max = 1;
    const raw = max / count;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw);
    const ticks = [];
    for (let v = 0; v <= max + step * 1e-9; v += step) ticks.push(v);
    if (ticks[ticks.length - 1] < max) ticks.push(ticks[ticks.length - 1] + step);
    return ticks;
  }

  function timeTicks(x0, x1) {
    const span = Math.max(x1 - x0, 1);
    const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600].map((s) => s * 1000);
    const step = steps.find((s) => span / s <= 6) || 7200000;
    const ticks = [];
    for (let t = Math.ceil(x0 / step) * step; t <= x1; t += step) ticks.push(t);
    return ticks;
  }

  /* Draws series over time into an <svg>.
   * series: [{name, cls, pts: [{x, y, batch}]}]; kind: 'line' | 'area' | 'bars' | 'stacked'. */
  function drawChart(root, series, opt) {
    root.replaceChildren();
    root.setAttribute('viewBox', `0 0 ${W} ${H}`);
    root.setAttribute('role', 'img');
    root.setAttribute('aria-label', opt.title);
    const pw = W - M.l - M.r, ph = H - M.t - M.b;
    const all = series.flatMap((s) => s.pts);
    if (!all.length) {
      root.append(svg('rect', { x: M.l, y: M.t, width: pw, height: ph, fill: '#f8fafc', rx: 6 }));
      root.append(svg('text', { x: M.l + pw / 2, y: M.t + ph / 2, 'text-anchor': 'middle', class: 'empty-text' },
        opt.empty || 'No progress reports yet'));
      return;
    }
    const xs = all.map((p) => p.x);
    let x0 = Math.min(...xs), x1 = Math.max(...xs);
    if (x1 - x0 < 1000) { x0 -= 500; x1 += 500; }
    const bars = opt.kind === 'bars' || opt.kind === 'stacked';
    const slot = bars ? pw / Math.max(series[0].pts.length, 1) : 0;
    let ymax = opt.kind === 'stacked'
      ? Math.max(...series[0].pts.map((_, i) => series.reduce((s, se) => s + (se.pts[i] ? se.pts[i].y : 0), 0)))
      : Math.max(...all.map((p) => p.y));
    let ymin = opt.kind === 'line' ? Math.min(0, ...all.map((p) => p.y)) : 0;
    const ticks = niceTicks(ymax - ymin, 4).map((t) => t + (ymin < 0 ? Math.floor(ymin) : 0));
    ymax = ticks[ticks.length - 1];
    ymin = ticks[0];
    const X = (x) => M.l + (bars ? 0 : (x - x0) / (x1 - x0) * pw);
    const Y = (y) => M.t + ph - (y - ymin) / (ymax - ymin || 1) * ph;

    const g = svg('g');
    for (const t of ticks) {
      g.append(svg('line', { class: 'gridline', x1: M.l, x2: M.l + pw, y1: Y(t), y2: Y(t) }));
      g.append(svg('text', { x: M.l - 8, y: Y(t) + 4, 'text-anchor': 'end' }, (opt.yFmt || fmtShort)(t)));
    }
    g.append(svg('line', { class: 'axis', x1: M.l, x2: M.l, y1: M.t, y2: M.t + ph }));
    g.append(svg('line', { class: 'axis', x1: M.l, x2: M.l + pw, y1: M.t + ph, y2: M.t + ph }));
    if (bars) {
      const pts = series[0].pts, every = Math.max(1, Math.ceil(pts.length / 6));
      pts.forEach((p, i) => {
        if (i % every) return;
        const cx = M.l + slot * (i + 0.5);
        g.append(svg('line', { class: 'axis', x1: cx, x2: cx, y1: M.t + ph, y2: M.t + ph + 4 }));
        g.append(svg('text', { x: cx, y: H - 8, 'text-anchor': 'middle' }, fmtClock(p.x)));
      });
    } else {
      for (const t of timeTicks(x0, x1)) {
        g.append(svg('line', { class: 'axis', x1: X(t), x2: X(t), y1: M.t + ph, y2: M.t + ph + 4 }));
        g.append(svg('text', { x: X(t), y: H - 8, 'text-anchor': 'middle' }, fmtClock(t)));
      }
    }
    if (opt.yLabel) {
      g.append(svg('text', { x: 12, y: M.t + ph / 2, transform: `rotate(-90 12 ${M.t + ph / 2})`,
        'text-anchor': 'middle' }, opt.yLabel));
    }
    root.append(g);

    const tip = (s, p) => `${s.name} · batch ${p.batch} · ${fmtClock(p.x)}: ${(opt.tipFmt || fmtNum)(p.y)}`;
    if (bars) {
      const bw = Math.max(1, Math.min(slot * 0.7, 28));
      const base = series[0].pts.map(() => 0);
      for (const s of series) {
        s.pts.forEach((p, i) => {
          const cx = M.l + slot * (i + 0.5), y0 = base[i], y1 = y0 + p.y;
          base[i] = y1;
          if (p.y <= 0) return;
          const r = svg('rect', { class: 'bar ' + s.cls, x: cx - bw / 2, y: Y(y1), width: bw,
            height: Math.max(Y(y0) - Y(y1), 0.5), rx: Math.min(2, bw / 4) });
          r.append(svg('title', {}, tip(s, p)));
          root.append(r);
        });
      }
      return;
    }
    for (const s of series) {
      if (!s.pts.length) continue;
      const d = s.pts.map((p, i) => (i ? 'L' : 'M') + X(p.x).toFixed(1) + ' ' + Y(p.y).toFixed(1)).join(' ');
      if (opt.kind === 'area') {
        const last = s.pts[s.pts.length - 1], first = s.pts[0];
        root.append(svg('path', { class: 'area ' + s.cls,
          d: `${d} L${X(last.x).toFixed(1)} ${Y(ymin)} L${X(first.x).toFixed(1)} ${Y(ymin)} Z` }));
      }
      root.append(svg('path', { class: 'line ' + s.cls, d }));
      if (s.pts.length <= 60) {
        for (const p of s.pts) {
          const c = svg('circle', { class: 'pt ' + s.cls, cx: X(p.x), cy: Y(p.y), r: 2.6 });
          c.append(svg('title', {}, tip(s, p)));
          root.append(c);
        }
      }
    }
  }

  function chartCard(id, title, unit, series) {
    let fig = $('card-' + id);
    if (!fig) {
      fig = el('figure', { class: 'card chart-card', id: 'card-' + id },
        el('figcaption', null, el('span', { class: 'title' }, title), el('span', { class: 'unit' }, unit),
          el('span', { class: 'legend' })),
        svg('svg', { class: 'chart', id: 'chart-' + id }));
      $('charts').append(fig);
    }
    const legend = fig.querySelector('.legend');
    legend.replaceChildren(...(series.length > 1
      ? series.map((s) => el('span', null, el('span', { class: 'key ' + s.cls }), s.name)) : []));
    return fig.querySelector('svg');
  }

  /* Points of one figure over the recent progress reports (missing values skipped). */
  function pointsOf(recent, get) {
    const pts = [];
    for (const p of recent) {
      const x = parseTs(p.timestamp), y = get(p);
      if (x !== null && y !== null && y !== undefined && isFinite(y)) pts.push({ x, y, batch: p.batchId });
    }
    return pts;
  }

  function renderCharts(recent) {
    const rates = [
      { name: 'Input rate', cls: 'c0', pts: pointsOf(recent, (p) => p.inputRowsPerSecond) },
      { name: 'Process rate', cls: 'c1', pts: pointsOf(recent, (p) => p.processedRowsPerSecond) },
    ];
    drawChart(chartCard('rates', 'Input rate vs process rate', 'rows/s', rates), rates,
      { kind: 'line', title: 'Input and process rate', yFmt: fmtShort });

    const rows = [{ name: 'Input rows', cls: 'c0', pts: pointsOf(recent, (p) => p.numInputRows) }];
    drawChart(chartCard('input-rows', 'Input rows', 'rows per batch', rows), rows,
      { kind: 'bars', title: 'Input rows per batch', tipFmt: (v) => fmtNum(v, 0) });

    const dur = [{ name: 'Batch duration', cls: 'c3', pts: pointsOf(recent,
      (p) => p.batchDuration !== undefined ? p.batchDuration : (p.durationMs || {}).triggerExecution) }];
    drawChart(chartCard('batch-duration', 'Batch duration', 'ms', dur), dur,
      { kind: 'area', title: 'Batch duration', tipFmt: fmtMs });

    const ops = PHASES.map((ph, i) => ({ name: ph, cls: 'c' + i,
      pts: recent.map((p) => ({ x: parseTs(p.timestamp), y: (p.durationMs || {})[ph] || 0, batch: p.batchId })) }));
    drawChart(chartCard('operation-duration', 'Operation duration', 'ms per phase', ops), ops,
      { kind: 'stacked', title: 'Operation duration', tipFmt: fmtMs });

    const nops = Math.max(0, ...recent.map((p) => (p.stateOperators || []).length));
    const state = [];
    for (let i = 0; i < nops; i++) {
      const name = (recent.find((p) => p.stateOperators && p.stateOperators[i]) || {}).stateOperators[i].operatorName;
      state.push({ name: nops > 1 ? `${name} #${i}` : name, cls: 'c' + (i % 6),
        pts: pointsOf(recent, (p) => p.stateOperators && p.stateOperators[i] ? p.stateOperators[i].numRowsTotal : null) });
    }
    drawChart(chartCard('state-rows', 'State rows', 'rows', state), state,
      { kind: 'area', title: 'State rows', empty: 'No stateful operator in this query', tipFmt: (v) => fmtNum(v, 0) });

    const wm = [{ name: 'Watermark delay', cls: 'c2', pts: pointsOf(recent, (p) => {
      const w = p.eventTime && parseTs(p.eventTime.watermark), t = parseTs(p.timestamp);
      return w ? (t - w) / 1000 : null;
    }) }];
    drawChart(chartCard('watermark', 'Watermark delay', 'seconds behind the batch start', wm), wm,
      { kind: 'line', title: 'Watermark delay', empty: 'No watermark in this query',
        tipFmt: (v) => fmtNum(v, 1) + ' s' });
  }

  /* ---------- polling and actions ---------- */

  async function refresh() {
    try {
      lastList = await api('/api/v1/queries');
      if (!lastList.some((q) => q.name === selected)) selected = lastList.length ? lastList[0].name : '';
      renderList(lastList);
      if (selected) {
        const path = '/api/v1/queries/' + encodeURIComponent(selected);
        const [q, recent] = await Promise.all([api(path), api(path + '/progress/recent')]);
        renderDetail(q, recent || []);
      } else {
        $('detail').hidden = true;
      }
      setLive('live', 'live · updated ' + fmtClock(Date.now()));
    } catch (e) {
      setLive('error', e.status === 401 ? 'not signed in: reload the page' : 'disconnected: ' + e.message);
    }
  }

  async function act(verb) {
    if (!selected || busy) return;
    busy = true;
    $('btn-stop').disabled = $('btn-start').disabled = true;
    const name = selected;
    try {
      const q = await api('/api/v1/queries/' + encodeURIComponent(name) + '/' + verb, 'POST');
      toast(`${name}: ${q.status.state}`);
    } catch (e) {
      toast(`${verb} ${name} failed: ${e.message}`, true);
    } finally {
      busy = false;
      refresh();
    }
  }

  async function loop() {
    await refresh();
    setTimeout(loop, POLL_MS);
  }

  $('btn-stop').addEventListener('click', () => act('stop'));
  $('btn-start').addEventListener('click', () => act('start'));
  loop();
})();
