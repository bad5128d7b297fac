/* Wake scrubber: a Streamlit component (protocol v1, plain postMessage, no build step).
 *
 * The server sends the game ONCE per game and view (args.payload: base64 of zlib'd JSON, made
 * by viewer/scrubber/payload.py): the first frame, per-event deltas, every log line, the chart
 * series. Here the deltas are folded into one frame per event, and every step (key, button,
 * slider, strip or chart click, move list click) only redraws the board and moves the cursors.
 * The settled position goes back to the server (setComponentValue, debounced) so the Explain
 * panel and the URL (?event=) catch up; the server's URL change is what Back/Forward walk.
 *
 * Safety: record text reaches the DOM only through textContent; plotly labels and hovers get
 * it HTML-escaped (plotly renders a few tags). Frames are already redacted for the view.
 */
'use strict';
(() => {
  const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
  const ATTACK_COLOUR = '#C00000';
  const HIDDEN_KIND = 'hidden'; // a unit another side may not see (domain.read_model.HIDDEN_KIND)
  const FOCUS_COLOUR = '#111111';
  const MIN_FILL_ALPHA = 0.15;
  const MAX_MARKER_SIZE = 28;
  const SHAPED_MARKER_SIZE = 9;
  const SLOT_RADIUS = 0.28;
  const SLOT_SPAN = 0.38;
  const SHAPE_FILL_ALPHA = { base: 0.10, zone: 0.30, heading: 0.90 };
  const FEATURE_FILL = 'rgba(128,128,128,0.30)';
  const FEATURE_LINE = '#7F7F7F';
  const OUT_LINE = '#A0A0A0';
  const OVERLAY_COLOURS = { line_of_sight: ATTACK_COLOUR, range: '#6A3D9A', path: '#117733' };
  const OVERLAY_OTHER = ['#882255', '#44AA99', '#999933', '#332288'];
  const MAX_TURN_MARKS = 40;
  const ACTION_PAD = 0.15;
  const ACTION_MIN = 0.6;
  const TOP_UNITS = 12;
  const REPORT_DELAY_MS = 250;
  const SWING_STYLE = {
    kill: ['#c0392b', 'x'], critical: ['#e67e22', 'star'],
    lucky: ['#27ae60', 'triangle-up'], unlucky: ['#8e44ad', 'triangle-down'],
  };
  const STRIP_PALETTE = ['#e8eef7', '#f7efe6', '#eaf5ea', '#f5e9f2', '#f4f4e4'];
  const CHARTS = {
    dmg_side: ['Damage taken per side (cumulative)', 'damage taken'],
    dmg_unit: ['Damage taken per unit (cumulative)', 'damage taken'],
    vp: ['Victory points per side', 'VP'],
    luck: ["Luck: actual minus expected outcome of each side's rolls", 'actual − expected'],
  };

  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = String(text);
    return node;
  };
  const esc = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;')
    .replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

  // --- state ---------------------------------------------------------------------------------
  let P = null; // the payload
  let payloadId = null;
  let frames = [];
  let length = 0;
  let pos = 0;
  let token = null;
  let drawn = -1;
  let scheduled = 0;
  let reportTimer = 0;
  let reported = null;
  let counter = 0;
  let turnStarts = [];
  let swings = [];
  let colours = {};
  let names = {};
  let chartsDrawn = {};
  let activeTab = 'dmg_side';
  let unitsShown = null;
  const instance = Math.random().toString(36).slice(2);

  // --- Streamlit component protocol ------------------------------------------------------------
  const send = (type, data) => {
    window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type }, data || {}), '*');
  };
  let lastHeight = 0;
  const fitHeight = () => {
    const height = Math.ceil(document.documentElement.scrollHeight) + 4;
    if (height !== lastHeight) {
      lastHeight = height;
      send('streamlit:setFrameHeight', { height });
    }
  };
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const msg = event.data;
    if (msg && msg.type === 'streamlit:render') onRender(msg.args || {});
  });

  async function inflate(b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return JSON.parse(await new Response(stream).text());
  }

  let loading = null;
  async function onRender(args) {
    if (args.payload_id !== payloadId) {
      payloadId = args.payload_id;
      const mine = payloadId;
      loading = inflate(args.payload);
      const data = await loading;
      if (mine !== payloadId) return; // a newer game arrived meanwhile
      start(data);
      showNotes(args.notes);
      token = args.token;
      jump(args.event);
      return;
    }
    if (loading) await loading;
    showNotes(args.notes);
    if (args.token !== token) { // the server moved the position (Back/Forward, a link)
      token = args.token;
      clearTimeout(reportTimer);
      reported = args.event;
      jump(args.event);
    }
  }

  function report() {
    clearTimeout(reportTimer);
    reportTimer = setTimeout(() => {
      if (pos === reported) return;
      reported = pos;
      counter += 1;
      send('streamlit:setComponentValue', {
        value: { event: pos, token, n: counter, game: P.game }, dataType: 'json',
      });
    }, REPORT_DELAY_MS);
  }

  // --- frames ----------------------------------------------------------------------------------
  function buildFrames() {
    const f0 = P.frame0;
    let cur = {
      units: P.units, board: P.board, turn: f0.turn, phase: f0.phase, active: f0.active,
      sides: f0.sides, result: f0.result, overlays: f0.overlays,
    };
    frames = [cur];
    for (const d of P.deltas) {
      if (d === 0) { frames.push(cur); continue; }
      const next = Object.assign({}, cur);
      if (d.u || d.order) {
        const byId = new Map(cur.units.map((u) => [u.id, u]));
        if (d.u) for (const id of Object.keys(d.u)) byId.set(id, d.u[id]);
        const order = d.order || cur.units.map((u) => u.id);
        next.units = order.map((id) => byId.get(id)).filter(Boolean);
      }
      for (const k of ['board', 'turn', 'phase', 'active', 'sides', 'result', 'overlays']) {
        if (k in d) next[k] = d[k];
      }
      frames.push(next);
      cur = next;
    }
  }

  // --- navigation --------------------------------------------------------------------------------
  const clamp = (n) => Math.max(0, Math.min(length, Math.round(Number(n) || 0)));
  function nextTurn(n) {
    const s = turnStarts.find((t) => t > n);
    return s === undefined ? length : s;
  }
  function prevTurn(n) {
    let best = 0;
    for (const t of turnStarts) { if (t < n) best = t; else break; }
    return best;
  }
  const nextSwing = (n) => swings.find((s) => s[0] > n) || null;
  function prevSwing(n) {
    let best = null;
    for (const s of swings) { if (s[0] < n) best = s; else break; }
    return best;
  }
  function target(action) {
    switch (action) {
      case 'start': return 0;
      case 'end': return length;
      case 'prev': return pos - 1;
      case 'next': return pos + 1;
      case 'prev-turn': return prevTurn(pos);
      case 'next-turn': return nextTurn(pos);
      case 'prev-swing': { const s = prevSwing(pos); return s ? s[0] : pos; }
      case 'next-swing': { const s = nextSwing(pos); return s ? s[0] : pos; }
      default: return pos;
    }
  }

  /** The user moved: show it now, tell the server once the user stops. */
  function go(n) {
    if (!P) return;
    const to = clamp(n);
    if (to === pos) return;
    pos = to;
    schedule();
    report();
  }
  /** The server moved (first render, Back/Forward): show it, do not report it back. */
  function jump(n) {
    pos = clamp(n);
    reported = pos;
    schedule();
  }

  // units out of play drawn as grey crosses, or left off the board (the toggle above it)
  let showOut = true;

  let stepStart = 0;
  function schedule() {
    showPosition(); // the text first: cheap, and never behind the key
    if (scheduled) return;
    stepStart = performance.now();
    scheduled = requestAnimationFrame(render);
  }
  function render() {
    scheduled = 0;
    const n = pos;
    if (n !== drawn) {
      drawBoard(n);
      drawn = n;
    }
    moveCursors(n);
    markMove(n);
    $('slider').value = String(n);
    updateButtons(n);
    const board = $('board');
    board.dataset.event = String(n);
    board.dataset.stepMs = (performance.now() - stepStart).toFixed(1); // for the benchmark
  }

  const KEYS = {
    ArrowRight: 'next', ArrowLeft: 'prev', PageDown: 'next-turn', PageUp: 'prev-turn',
    Home: 'start', End: 'end', n: 'next-swing', p: 'prev-swing',
  };
  function matchesSafe(el, selector) {
    try { return el.matches(selector); } catch (err) { return false; }
  }
  function onKey(e) {
    if (!P || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && t !== $('slider')) {
      const tag = (t.tagName || '').toUpperCase();
      // A radio chosen with the mouse (the sidebar's "View as") keeps the focus, and the
      // browser would move the choice on ←/→: keys scrub, a choice changes only when clicked.
      // A radio reached with Tab (focus-visible) keeps its keys for keyboard users.
      const clickedRadio = tag === 'INPUT' && t.type === 'radio' && !matchesSafe(t, ':focus-visible');
      if (clickedRadio && KEYS[e.key]) {
        e.preventDefault();
        t.blur();
      } else if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t.isContentEditable) return;
      const role = t.getAttribute && t.getAttribute('role');
      if (role && ['slider', 'combobox', 'listbox', 'option', 'textbox', 'spinbutton'].includes(role)) return;
    }
    let action = KEYS[e.key];
    if (e.shiftKey && e.key === 'ArrowRight') action = 'next-turn';
    if (e.shiftKey && e.key === 'ArrowLeft') action = 'prev-turn';
    if (!action) return;
    e.preventDefault();
    go(target(action));
  }
  document.addEventListener('keydown', onKey);
  // Keys pressed anywhere on the page (not only in this frame) scrub too: the frame is
  // same-origin; the newest scrubber on the page owns them.
  let parentDoc = null;
  try {
    parentDoc = window.parent.document;
    parentDoc.wakeScrubber = instance;
    const onParentKey = (e) => {
      if (parentDoc.wakeScrubber !== instance) {
        parentDoc.removeEventListener('keydown', onParentKey);
        return;
      }
      onKey(e);
    };
    parentDoc.addEventListener('keydown', onParentKey);
    window.addEventListener('pagehide', () => parentDoc.removeEventListener('keydown', onParentKey));
    // Back/Forward: Streamlit reruns with the URL's event and the server moves us; reading the
    // URL here as well shows the position at once.
    const onPop = () => {
      if (parentDoc.wakeScrubber !== instance || !P) return;
      const wanted = new URLSearchParams(window.parent.location.search).get('event');
      if (wanted !== null && /^\d+$/.test(wanted)) jump(Number(wanted));
    };
    window.parent.addEventListener('popstate', onPop);
    window.addEventListener('pagehide', () => window.parent.removeEventListener('popstate', onPop));
  } catch (err) {
    parentDoc = null; // another origin: keys work when this frame has the focus
  }

  // --- the position line and the controls ----------------------------------------------------
  function showPosition() {
    const line = $('position');
    line.textContent = '';
    const head = el('b', '', `Event ${pos} / ${length}`);
    line.append(head);
    if (pos === 0) {
      line.append(' · Start');
    } else {
      const f = frames[pos];
      const ev = P.events[pos - 1];
      line.append(` · Turn ${f.turn} · ${f.phase} · ${ev[3]}`);
    }
  }
  function updateButtons(n) {
    const next = nextSwing(n);
    const prev = prevSwing(n);
    document.querySelector('[data-go="next-swing"]').disabled = !next;
    document.querySelector('[data-go="prev-swing"]').disabled = !prev;
    $('swing-note').textContent = next ? `Next swing: event ${next[0]} (${next[1]}) — ${next[2]}` : '';
  }

  // --- board -----------------------------------------------------------------------------------
  function fmt(v) {
    if (typeof v === 'boolean') return v ? 'yes' : 'no';
    if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
    return String(v);
  }
  function rgba(hex, alpha) {
    const h = hex.replace('#', '');
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
    return `rgba(${r},${g},${b},${alpha.toFixed(2)})`;
  }
  function damageRatio(u) {
    if (u.strength <= 0) return u.damage <= 0 ? 0 : 1;
    return Math.min(Math.max(u.damage / u.strength, 0), 1);
  }
  const markerSize = (u) => (u.shapes ? SHAPED_MARKER_SIZE : Math.min(10 + 3 * Math.max(u.strength, 0), MAX_MARKER_SIZE));
  function slots(c, n) {
    const [cx, cy] = c;
    if (n <= 1) return [c];
    const out = [];
    if (n <= 6) {
      for (let i = 0; i < n; i += 1) {
        const a = Math.PI / 2 - (2 * Math.PI * i) / n;
        out.push([cx + SLOT_RADIUS * Math.cos(a), cy + SLOT_RADIUS * Math.sin(a)]);
      }
      return out;
    }
    const k = Math.ceil(Math.sqrt(n));
    const step = (2 * SLOT_SPAN) / (k - 1);
    for (let i = 0; i < n; i += 1) out.push([cx - SLOT_SPAN + (i % k) * step, cy + SLOT_SPAN - Math.floor(i / k) * step]);
    return out;
  }
  function spread(groups) {
    const placed = {};
    for (const { centre, ids } of groups.values()) {
      const s = slots(centre, ids.length);
      ids.forEach((id, i) => { placed[id] = s[i]; });
    }
    return placed;
  }
  const seatOf = (u) => ((u.details && typeof u.details.seat === 'string' && u.details.seat) ? u.details.seat : u.side);
  function zoneAxes(f) {
    const seats = f.board.seats && f.board.seats.length ? [...f.board.seats] : f.sides.map((s) => s.id);
    const zones = [...(f.board.zones || [])];
    for (const u of f.units) {
      if (u.zone == null) continue;
      if (!seats.includes(seatOf(u))) seats.push(seatOf(u));
      if (!zones.includes(u.zone)) zones.push(u.zone);
    }
    return [seats, zones];
  }
  function where(u, seat) {
    if (u.position) return `position: (${fmt(u.position[0])}, ${fmt(u.position[1])})`;
    if (u.cell) return `cell: (${u.cell[0]}, ${u.cell[1]})`;
    if (u.zone != null) return `zone: ${u.zone}` + (seat ? `, seat: ${seat}` : '');
    return 'position: off board';
  }
  function placements(f) {
    const kind = f.board.kind;
    const pts = {};
    const wh = {};
    if (kind === 'continuous') {
      for (const u of f.units) if (u.position) { pts[u.id] = [u.position[0], u.position[1]]; wh[u.id] = where(u); }
      return [pts, wh];
    }
    const groups = new Map();
    const add = (c, id) => {
      const key = `${c[0]},${c[1]}`;
      if (!groups.has(key)) groups.set(key, { centre: c, ids: [] });
      groups.get(key).ids.push(id);
    };
    if (kind === 'grid') {
      for (const u of f.units) if (u.cell) { add([u.cell[0] + 0.5, u.cell[1] + 0.5], u.id); wh[u.id] = where(u); }
      return [spread(groups), wh];
    }
    const [seats, zones] = zoneAxes(f);
    for (const u of f.units) {
      if (u.zone == null) continue;
      const seat = seatOf(u);
      add([seats.indexOf(seat), zones.indexOf(u.zone)], u.id);
      wh[u.id] = where(u, seat);
    }
    return [spread(groups), wh];
  }
  // the hover holds the essentials; a click on the unit shows everything below the board
  function hover(u, sideName) {
    const status = u.status === 'active' ? '' : ` · ${esc(u.status)}`;
    const lines = [`<b>${esc(u.name)}</b>`, `${esc(sideName)} · ${esc(u.kind)}${status}`];
    if (u.strength > 0 || u.damage > 0) lines.push(`damage ${u.damage}/${u.strength}`);
    if (u.kind !== HIDDEN_KIND) lines.push('<i>click for details and reach</i>');
    return lines.join('<br>');
  }
  function batched(geoms) {
    const xs = [];
    const ys = [];
    for (const g of geoms) {
      if (xs.length) { xs.push(null); ys.push(null); }
      for (const [x, y] of g.ring) { xs.push(x); ys.push(y); }
    }
    return [xs, ys];
  }
  const fillTrace = (name, geoms, fill, line, group) => {
    const [x, y] = batched(geoms);
    return { type: 'scatter', name: esc(name), legendgroup: group, showlegend: false, x, y, mode: 'lines',
      fill: 'toself', fillcolor: fill, line: { color: line, width: 1 }, hoverinfo: 'skip' };
  };
  const lineTrace = (name, geoms, colour, dash, width, group) => {
    const [x, y] = batched(geoms);
    return { type: 'scatter', name: esc(name), legendgroup: group, showlegend: false, x, y, mode: 'lines',
      line: { color: colour, dash, width }, hoverinfo: 'skip' };
  };
  const labelTrace = (name, labelled, colour, size, group) => ({
    type: 'scatter', name: esc(name), legendgroup: group, showlegend: false,
    x: labelled.map(([g]) => g.at[0]), y: labelled.map(([g]) => g.at[1]), mode: 'text',
    text: labelled.map(([g]) => esc(g.label || '')), textposition: 'middle center',
    textfont: { size, color: colour }, hovertext: labelled.map(([, h]) => h),
    hovertemplate: '%{hovertext}<extra></extra>',
  });
  function extent(u) {
    if (!u.position || !u.shapes) return [[0, 0]];
    const out = [];
    for (const s of u.shapes) for (const [x, y] of s.ring) out.push([x - u.position[0], y - u.position[1]]);
    return out.length ? out : [[0, 0]];
  }
  function actionWindow(f) {
    const b = f.board;
    const big = Math.max(b.width, b.height);
    const pad = 0.03 * big;
    const whole = [[-pad, b.width + pad], [-pad, b.height + pad]];
    const points = [];
    for (const u of f.units) {
      if (u.status !== 'active' || !u.position) continue;
      for (const [dx, dy] of extent(u)) points.push([u.position[0] + dx, u.position[1] + dy]);
    }
    if (!points.length) return whole;
    const margin = ACTION_PAD * big;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    let x0 = Math.min(...xs) - margin; const x1 = Math.max(...xs) + margin;
    let y0 = Math.min(...ys) - margin; const y1 = Math.max(...ys) + margin;
    const span = Math.max(x1 - x0, y1 - y0, ACTION_MIN * big);
    if (span >= big) return whole;
    const cx = (x0 + x1) / 2; const cy = (y0 + y1) / 2;
    x0 = Math.min(Math.max(cx - span / 2, -pad), b.width + pad - span);
    y0 = Math.min(Math.max(cy - span / 2, -pad), b.height + pad - span);
    return [[x0, x0 + span], [y0, y0 + span]];
  }
  function boardFrame(f, layout, traces) {
    const b = f.board;
    const grey = '#B0B0B0';
    const shapes = [];
    const notes = [];
    if (b.kind === 'continuous') {
      shapes.push({ type: 'rect', x0: 0, y0: 0, x1: b.width, y1: b.height, layer: 'below', fillcolor: '#EEF3F7', line: { color: grey, width: 1 } });
      const [[x0, x1], [y0, y1]] = actionWindow(f);
      layout.xaxis = { range: [x0, x1], title: { text: `x (${esc(b.unit)})` } };
      layout.yaxis = { range: [y0, y1], title: { text: `y (${esc(b.unit)})` }, scaleanchor: 'x', scaleratio: 1 };
    } else if (b.kind === 'grid') {
      const cols = Math.trunc(b.width); const rows = Math.trunc(b.height);
      for (let c = 0; c < cols; c += 1) for (let r = 0; r < rows; r += 1) {
        shapes.push({ type: 'rect', x0: c, y0: r, x1: c + 1, y1: r + 1, layer: 'below', fillcolor: '#F4F6F8', line: { color: grey, width: 1 } });
      }
      const cells = b.cells || [];
      if (cells.length) {
        traces.push({
          type: 'scatter', name: 'cells', x: cells.map((c) => c.cell[0] + 0.5), y: cells.map((c) => c.cell[1] + 0.5),
          mode: 'markers', marker: { size: 6, color: '#C8C8C8', opacity: 0.5 }, showlegend: false,
          hovertext: cells.map((c) => {
            const lines = [`<b>cell (${c.cell[0]}, ${c.cell[1]})</b>`];
            if (c.label) lines.push(esc(c.label));
            for (const [k, v] of Object.entries(c.details || {})) if (v != null) lines.push(`${esc(k)}: ${esc(fmt(v))}`);
            return lines.join('<br>');
          }),
          hovertemplate: '%{hovertext}<extra></extra>',
        });
        for (const c of cells) if (c.label) {
          notes.push({ x: c.cell[0] + 0.03, y: c.cell[1] + 0.03, xref: 'x', yref: 'y', text: esc(c.label), showarrow: false,
            xanchor: 'left', yanchor: 'top', font: { size: 9, color: '#888888' } });
        }
      }
      const range = (n) => Array.from({ length: n }, (_, i) => i);
      layout.xaxis = { range: [0, cols], tickvals: range(cols).map((c) => c + 0.5), ticktext: range(cols).map(String), showgrid: false, zeroline: false, title: { text: 'column' } };
      layout.yaxis = { range: [rows, -0.25], tickvals: range(rows).map((r) => r + 0.5), ticktext: range(rows).map(String), showgrid: false, zeroline: false, title: { text: 'row' }, scaleanchor: 'x', scaleratio: 1 };
    } else {
      const [seats, zones] = zoneAxes(f);
      for (let i = 0; i < seats.length; i += 1) for (let j = 0; j < zones.length; j += 1) {
        shapes.push({ type: 'rect', x0: i - 0.5, y0: j - 0.5, x1: i + 0.5, y1: j + 0.5, layer: 'below', fillcolor: '#F4F6F8', line: { color: grey, width: 1 } });
      }
      layout.xaxis = { range: [-0.5, seats.length - 0.5], tickvals: seats.map((_, i) => i), ticktext: seats.map(esc), showgrid: false, zeroline: false, title: { text: 'seat' } };
      layout.yaxis = { range: [zones.length - 0.5, -0.5], tickvals: zones.map((_, i) => i), ticktext: zones.map(esc), showgrid: false, zeroline: false, title: { text: 'zone' } };
    }
    layout.shapes = shapes;
    layout.annotations = notes;
  }
  function drawFeatures(f, traces) {
    const features = f.board.features || [];
    if (!features.length) return;
    const group = 'board features';
    traces.push(fillTrace(group, features, FEATURE_FILL, FEATURE_LINE, group));
    const labelled = features.filter((g) => g.at).map((g) => {
      const lines = [`<b>${esc(g.name || g.id)}</b> (${esc(g.id)})`];
      if (g.kind) lines.push(`kind: ${esc(g.kind)}`);
      for (const [k, v] of Object.entries(g.details || {})) if (v != null) lines.push(`${esc(k)}: ${esc(fmt(v))}`);
      return [g, lines.join('<br>')];
    });
    if (labelled.length) traces.push(labelTrace('feature labels', labelled, '#555555', 9, group));
  }
  function drawShapes(units, sideName, colour, traces, places) {
    const byStyle = { base: [], zone: [], heading: [], arc: [] };
    const out = [];
    const labelled = [];
    const named = [];
    for (const u of units) {
      if (u.status !== 'active') { out.push(...u.shapes); continue; }
      const at = places.get(u.id);
      if (at) named.push([u, at]);
      for (const s of u.shapes) {
        (byStyle[s.closed ? s.style : 'arc'] || byStyle.base).push(s);
        if (s.label) labelled.push([s, `<b>${esc(u.name)}</b> (${esc(u.id)})<br>${esc(s.part)}: ${esc(s.label)}`]);
      }
    }
    if (out.length) traces.push(lineTrace(`${sideName} shapes (out)`, out, OUT_LINE, 'dot', 1, sideName));
    for (const style of ['base', 'zone', 'heading']) {
      if (byStyle[style].length) traces.push(fillTrace(`${sideName} ${style}s`, byStyle[style], rgba(colour, SHAPE_FILL_ALPHA[style]), colour, sideName));
    }
    if (byStyle.arc.length) traces.push(lineTrace(`${sideName} arcs`, byStyle.arc, rgba(colour, 0.55), 'dot', 1, sideName));
    if (named.length) {
      traces.push({ type: 'scatter', name: `${esc(sideName)} names`, legendgroup: sideName, showlegend: false,
        x: named.map(([, at]) => at.x), y: named.map(([, at]) => at.y), mode: 'text',
        text: named.map(([u]) => esc(unitLabel(u))), textposition: named.map(([, at]) => at.place),
        textfont: { size: 10, color: '#222222' }, hoverinfo: 'skip' });
    }
    if (labelled.length) traces.push(labelTrace(`${sideName} labels`, labelled, '#111111', 11, sideName));
  }
  function drawOverlays(f, traces) {
    const overlays = f.overlays || [];
    if (!overlays.length) return;
    const unitNames = Object.fromEntries(f.units.map((u) => [u.id, u.name]));
    const kinds = [...new Set(overlays.map((o) => o.kind))];
    const others = kinds.filter((k) => !(k in OVERLAY_COLOURS));
    const labelled = [];
    for (const kind of kinds) {
      const colour = OVERLAY_COLOURS[kind] || OVERLAY_OTHER[others.indexOf(kind) % OVERLAY_OTHER.length];
      const of = overlays.filter((o) => o.kind === kind);
      const areas = of.filter((o) => o.closed);
      const lines = of.filter((o) => !o.closed);
      const label = kind.replace(/_/g, ' ');
      if (areas.length) {
        const t = fillTrace(label, areas, rgba(colour, 0.08), colour, label);
        t.line.dash = 'dash';
        t.showlegend = !lines.length;
        traces.push(t);
      }
      if (lines.length) {
        const t = lineTrace(label, lines, colour, 'dash', 2, label);
        t.showlegend = true;
        traces.push(t);
      }
      for (const o of of) {
        if (!o.label || !o.at) continue;
        const who = (o.units || []).map((u) => unitNames[u] || u).join(', ');
        const ls = [`<b>${esc(label)}</b>: ${esc(o.label)}`];
        if (who) ls.push(esc(who));
        for (const [k, v] of Object.entries(o.details || {})) if (v != null) ls.push(`${esc(k)}: ${esc(fmt(v))}`);
        labelled.push([o, ls.join('<br>')]);
      }
    }
    if (labelled.length) traces.push(labelTrace('overlay labels', labelled, '#333333', 10));
  }
  // Labels that never collide: each label takes the first of its candidate places (around a
  // marker, or around a unit's outline) whose box, estimated in screen pixels, meets no label
  // already placed; the units the current event names go first. A label with no free place is
  // left off the board (its hover and the unit's details still name it).
  const MARKER_PLACES = ['top center', 'bottom center', 'middle right', 'middle left',
    'top right', 'top left', 'bottom right', 'bottom left'];
  const CHAR_PX = 6.2;
  const LINE_PX = 12;
  const LABEL_PAD = 1.5; // px around each label box: estimates, not glyph boxes
  function labelBox(x, y, place, w, gap) {
    const [v, hz] = place.split(' ');
    const d = hz === 'center' || v === 'middle' ? gap : gap * 0.7;
    const bx = hz === 'center' ? x - w / 2 : (hz === 'right' ? x + d : x - d - w);
    const by = v === 'middle' ? y - LINE_PX / 2 : (v === 'top' ? y - d - LINE_PX : y + d);
    return [bx - LABEL_PAD, by - LABEL_PAD, bx + w + LABEL_PAD, by + LINE_PX + LABEL_PAD];
  }
  const meets = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  function outlineBox(u) {
    const closed = u.shapes.filter((sh) => sh.closed);
    const pts = (closed.length ? closed : u.shapes).flatMap((sh) => sh.ring);
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  /** Where each unit's label goes: id -> {x, y, place} in board coordinates, or null when
   *  no place is free inside the plot. ``toPx`` maps a board point to screen pixels and
   *  ``toPx.bounds`` is the plot area; the labels of board features and overlays (centred on
   *  their point) are there first. */
  function placeLabels(f, pts, toPx, focusIds) {
    const units = f.units.filter((u) => pts[u.id] && !u.private && (showOut || u.status === 'active'));
    units.sort((a, b) => Number(focusIds.has(b.id)) - Number(focusIds.has(a.id)));
    const boxes = [];
    for (const g of [...(f.board.features || []), ...(f.overlays || [])]) {
      if (!g.at || !g.label) continue;
      const [px, py] = toPx(g.at[0], g.at[1]);
      const w = g.label.length * CHAR_PX;
      boxes.push([px - w / 2, py - LINE_PX / 2, px + w / 2, py + LINE_PX / 2]);
    }
    for (const c of f.board.cells || []) { // a grid cell's note, written from its corner
      if (!c.label) continue;
      const [px, py] = toPx(c.cell[0] + 0.03, c.cell[1] + 0.03);
      boxes.push([px, py, px + c.label.length * 5.2, py + 11]);
    }
    const [bx0, by0, bx1, by1] = toPx.bounds;
    const inside = (b) => b[0] >= bx0 && b[2] <= bx1 && b[1] >= by0 && b[3] <= by1;
    const out = new Map();
    for (const u of units) {
      const text = unitLabel(u);
      const w = text.length * CHAR_PX + 4;
      let options;
      if (u.shapes && u.status === 'active') {
        const [x0, y0, x1, y1] = outlineBox(u);
        const cx = (x0 + x1) / 2; const cy = (y0 + y1) / 2;
        // below the outline first (where names always were), then above, right, left
        options = [[cx, y0, 'bottom center'], [cx, y1, 'top center'], [x1, cy, 'middle right'], [x0, cy, 'middle left']]
          .map(([x, y, place]) => [x, y, toPx(x, y), screenPlace(place, toPx), 2]);
      } else {
        const [x, y] = pts[u.id];
        const gap = (u.status === 'active' ? markerSize(u) : 12) / 2 + 1;
        options = MARKER_PLACES.map((place) => [x, y, toPx(x, y), place, gap]);
      }
      let chosen = null;
      for (const [x, y, [px, py], place, gap] of options) {
        const box = labelBox(px, py, place, w, gap);
        if (!inside(box) || boxes.some((b) => meets(b, box))) continue;
        boxes.push(box);
        chosen = { x, y, place };
        break;
      }
      out.set(u.id, chosen);
    }
    return out;
  }
  // a plotly text position names the side on screen; on a board whose y axis runs down the
  // outline's low-y edge is at the top
  function screenPlace(place, toPx) {
    if (toPx(0, 0)[1] > toPx(0, 1)[1]) return place; // y runs up the screen
    return place.replace('bottom', 'TOP').replace('top', 'bottom').replace('TOP', 'top');
  }
  // the label: the unit's id, and its damage as a number once it has taken any (the fill's
  // fade alone was too faint to read)
  // a board label in players' words, short enough to place: the unit's name when short (HMS
  // Ajax), else its id read as words (graf spee, tie 1); the full name is in the hover
  const LABEL_NAME_MAX = 14;
  const shortName = (u) => (u.name && u.name.length <= LABEL_NAME_MAX ? u.name : String(u.id).replace(/_/g, ' '));
  const unitLabel = (u) => (u.damage > 0 && u.strength > 0 ? `${shortName(u)} ${u.damage}/${u.strength}` : shortName(u));
  function unitTrace(name, units, pts, sideName, colour, out, places) {
    const marker = out
      ? { symbol: 'x', color: colour, opacity: 0.45, size: 12 }
      : { symbol: 'circle', size: units.map(markerSize),
        color: units.map((u) => rgba(colour, 1 - (1 - MIN_FILL_ALPHA) * damageRatio(u))),
        line: { color: colour, width: 2 } };
    return {
      type: 'scatter', name: esc(name), legendgroup: sideName, x: units.map((u) => pts[u.id][0]),
      y: units.map((u) => pts[u.id][1]), mode: 'markers+text',
      text: units.map((u) => (u.private || (u.shapes && !out) || !places.get(u.id) ? '' : esc(unitLabel(u)))),
      textposition: units.map((u) => (places.get(u.id) || { place: 'top center' }).place),
      textfont: { size: 10, color: out ? '#888888' : '#222222' }, meta: 'unit',
      customdata: units.map((u) => u.id), hovertext: units.map((u) => hover(u, sideName)),
      hovertemplate: '%{hovertext}<extra></extra>', marker,
    };
  }
  function highlight(n, f, pts, layout, traces, places) {
    if (n < 1) return;
    const before = frames[n - 1];
    const old = new Map(before.units.map((u) => [u.id, u]));
    for (const u of f.units) {
      const prev = old.get(u.id);
      if (!prev) continue;
      let src = null; let dst = null;
      if (u.position && prev.position && (u.position[0] !== prev.position[0] || u.position[1] !== prev.position[1])) {
        src = prev.position; dst = u.position;
      } else if (u.cell && prev.cell && (u.cell[0] !== prev.cell[0] || u.cell[1] !== prev.cell[1])) {
        src = [prev.cell[0] + 0.5, prev.cell[1] + 0.5]; dst = pts[u.id] || [u.cell[0] + 0.5, u.cell[1] + 0.5];
      }
      if (!src) continue;
      layout.annotations.push({
        x: dst[0], y: dst[1], ax: src[0], ay: src[1], xref: 'x', yref: 'y',
        axref: 'x', ayref: 'y', text: '', showarrow: true, arrowhead: 2, arrowsize: 1.2, arrowwidth: 2,
        arrowcolor: colours[u.side] || FOCUS_COLOUR, standoff: markerSize(u) / 2 + 2, hovertext: `${esc(u.name)} moves`,
      });
    }
    const ev = P.events[n - 1];
    const focusIds = new Set(ev[2]);
    const focused = f.units.filter((u) => focusIds.has(u.id) && pts[u.id] && (showOut || u.status === 'active'));
    // the units the event names are drawn again last, so no other unit hides them
    for (const sid of Object.keys(colours)) {
      const mine = focused.filter((u) => u.side === sid && !u.shapes);
      if (!mine.length) continue;
      const name = names[sid] || sid;
      const t = unitTrace(`${name} (current)`, mine, pts, name, colours[sid], false, places);
      t.showlegend = false;
      t.marker.symbol = mine.map((u) => (u.status === 'active' ? 'circle' : 'x'));
      traces.push(t);
    }
    // every attack line of the event, attacker to each target, labelled with range and result
    const lines = (ev[4] || []).filter(([a, t]) => pts[a] && pts[t]);
    if (lines.length) {
      const unitNames = Object.fromEntries(f.units.map((u) => [u.id, u.name || u.id]));
      const xs = []; const ys = []; const hover = []; const ids = [];
      for (const [a, t, label] of lines) {
        const text = `${esc(unitNames[a] || a)} → ${esc(unitNames[t] || t)}${label ? `: ${esc(label)}` : ''}`;
        xs.push(pts[a][0], pts[t][0], null); ys.push(pts[a][1], pts[t][1], null);
        hover.push(text, text, ''); ids.push(a, t, null);
        if (label) {
          layout.annotations.push({ x: (pts[a][0] + pts[t][0]) / 2, y: (pts[a][1] + pts[t][1]) / 2,
            xref: 'x', yref: 'y', text: esc(label), showarrow: false, font: { size: 10, color: ATTACK_COLOUR },
            bgcolor: 'rgba(255,255,255,0.75)' });
        }
      }
      traces.push({ type: 'scatter', name: 'attack', legendgroup: 'attack', showlegend: true,
        x: xs, y: ys, mode: 'lines', line: { color: ATTACK_COLOUR, dash: 'dash', width: 2 },
        customdata: ids, hovertext: hover, hovertemplate: '%{hovertext}<extra>attack</extra>' });
    }
    const outlined = focused.filter((u) => u.shapes);
    if (outlined.length) {
      const bases = outlined.flatMap((u) => u.shapes.filter((s) => s.style === 'base' && s.closed));
      const t = lineTrace('focus outline', bases.length ? bases : outlined.flatMap((u) => u.shapes), FOCUS_COLOUR, 'solid', 3, 'focus');
      traces.push(t);
    }
    const plain = focused.filter((u) => !u.shapes);
    if (plain.length) {
      traces.push({ type: 'scatter', name: 'focus', x: plain.map((u) => pts[u.id][0]), y: plain.map((u) => pts[u.id][1]),
        mode: 'markers', marker: { symbol: 'circle-open', size: plain.map((u) => markerSize(u) + 14), color: FOCUS_COLOUR, line: { width: 3 } },
        customdata: plain.map((u) => u.id), hoverinfo: 'skip', showlegend: false });
    }
  }
  function boardTitle(f) {
    let title = `${P.title.ruleset} · ${P.title.scenario} · turn ${f.turn}, ${f.phase}`;
    if (f.result) {
      const w = f.result.winner;
      title += ` · result: ${w ? (names[w] || w) : 'draw'}`;
    }
    return esc(title);
  }
  // --- the selected unit: its reach drawn as rings, everything about it below the board --------
  let selected = null;
  const RING_COLOURS = { range: '#6A3D9A', move: '#117733' };
  const RING_STEPS = 48;
  function circle(cx, cy, r) {
    const out = [];
    for (let i = 0; i <= RING_STEPS; i += 1) {
      const a = (2 * Math.PI * i) / RING_STEPS;
      out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
    return out;
  }
  function hull(points) { // convex hull, monotone chain; closed ring
    const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    const half = (list) => {
      const h = [];
      for (const q of list) {
        while (h.length >= 2 && cross(h[h.length - 2], h[h.length - 1], q) <= 0) h.pop();
        h.push(q);
      }
      h.pop();
      return h;
    };
    const ring = [...half(p), ...half([...p].reverse())];
    return ring.length ? [...ring, ring[0]] : ring;
  }
  /** A ring's outline in board coordinates, or null where the board has no distances. */
  function ringOutline(u, ring, board) {
    const d = ring.distance;
    if (board.kind === 'grid') { // 8-neighbour steps: a square of cells, clipped to the map
      if (!u.cell) return null;
      const x0 = Math.max(0, u.cell[0] - d); const x1 = Math.min(Math.trunc(board.width), u.cell[0] + d + 1);
      const y0 = Math.max(0, u.cell[1] - d); const y1 = Math.min(Math.trunc(board.height), u.cell[1] + d + 1);
      return [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
    }
    if (board.kind !== 'continuous' || !u.position) return null;
    const base = (u.shapes || []).filter((sh) => sh.closed && sh.style === 'base');
    if (ring.from_edge && base.length) { // every point within d of the base (a convex base)
      const around = circle(0, 0, d);
      return hull(base.flatMap((sh) => sh.ring).flatMap(([x, y]) => around.map(([dx, dy]) => [x + dx, y + dy])));
    }
    return d > 0 ? circle(u.position[0], u.position[1], d) : null;
  }
  function drawRings(f, pts, traces) {
    const u = selected && f.units.find((x) => x.id === selected);
    if (!u || !pts[u.id] || u.status !== 'active' || !(u.rings || []).length) return;
    const down = f.board.kind !== 'continuous'; // y runs down the screen on grids
    for (const kind of ['range', 'move']) {
      const rings = u.rings.filter((r) => r.kind === kind);
      const drawnRings = rings.map((r) => [r, ringOutline(u, r, f.board)]).filter(([, g]) => g);
      if (!drawnRings.length) continue;
      const colour = RING_COLOURS[kind];
      const [x, y] = batched(drawnRings.map(([, g]) => ({ ring: g })));
      traces.push({ type: 'scatter', name: `${kind} of ${esc(u.id)}`, legendgroup: 'rings', showlegend: true,
        x, y, mode: 'lines', line: { color: colour, dash: kind === 'range' ? 'dash' : 'dot', width: 1.5 },
        hoverinfo: 'skip' });
      // range labels at the top of each ring, movement labels at the bottom
      const top = (kind === 'range') !== down;
      const at = drawnRings.map(([r, g]) => {
        const ys = g.map((q) => q[1]);
        const yEdge = top ? Math.max(...ys) : Math.min(...ys);
        const xs = g.filter((q) => q[1] === yEdge).map((q) => q[0]);
        const xMid = f.board.kind === 'grid' ? Math.min(...g.map((q) => q[0])) : (Math.min(...xs) + Math.max(...xs)) / 2;
        return [r, xMid, yEdge];
      });
      traces.push({ type: 'scatter', name: `${kind} labels`, legendgroup: 'rings', showlegend: false,
        x: at.map((a) => a[1]), y: at.map((a) => a[2]), mode: 'text',
        text: at.map(([r]) => esc(r.label)), textfont: { size: 10, color: colour },
        textposition: `${kind === 'range' ? 'top' : 'bottom'} ${f.board.kind === 'grid' ? 'right' : 'center'}`,
        hovertext: at.map(([r]) => `${esc(r.label)}${r.rule ? ` (${esc(r.rule)})` : ''}`),
        hovertemplate: '%{hovertext}<extra></extra>' });
    }
  }
  function select(id) {
    selected = id || null;
    $('unit-select').value = selected || '';
    drawn = -1;
    schedule();
  }
  /** Everything about the selected unit at this position, as plain text. */
  function showUnit(f, wh) {
    const box = $('unit-info');
    box.textContent = '';
    box.hidden = !selected;
    if (!selected) return;
    const u = f.units.find((x) => x.id === selected);
    if (!u) {
      box.append(el('p', 'note', `${selected} is not in the game at this event.`));
      return;
    }
    const status = u.status === 'active' ? '' : ` · ${u.status}`;
    box.append(el('p', 'unit-head', `${u.name} · ${names[u.side] || u.side} · ${u.kind}${status}`));
    const rows = [['damage', `${u.damage}/${u.strength}`], ['where', wh[u.id] || 'off the board']];
    if (u.heading != null) rows.push(['heading', `${fmt(u.heading)}°`]);
    // players' words (issue 21 item 7): a unit named in a detail by its name, other ids humanised
    const nameOf = new Map(f.units.filter((x) => !x.private || x.name !== 'hidden').map((x) => [x.id, x.name]));
    const words = (v) => (typeof v !== 'string' ? fmt(v) : v.replace(/[A-Za-z0-9][\w-]*/g,
      (t) => nameOf.get(t) || (/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(t) ? t.replace(/_/g, ' ') : t)));
    for (const [k, v] of Object.entries(u.details || {})) if (v != null) rows.push([k.replace(/_/g, ' '), words(v)]);
    const dl = el('dl');
    for (const [k, v] of rows) dl.append(el('dt', '', k), el('dd', '', v));
    box.append(dl);
    const rings = u.rings || [];
    if (rings.length && u.status === 'active') {
      box.append(el('p', 'note', 'Reach, drawn on the board (a guide: arcs, line of sight and terrain still apply):'));
      const list = el('ul');
      for (const r of rings) list.append(el('li', '', `${r.kind}: ${r.label}${r.rule ? ` (${r.rule})` : ''}`));
      box.append(list);
    } else if (!rings.length) {
      box.append(el('p', 'note', 'No reach to draw for this unit on this board.'));
    }
  }
  function buildUnitSelect() {
    const pick = $('unit-select');
    pick.textContent = '';
    pick.append(el('option', '', '— none —'));
    pick.firstChild.value = '';
    const seen = new Map();
    for (const f of [frames[0], ...P.deltas.filter((d) => d && d.u).map((d) => ({ units: Object.values(d.u) }))]) {
      for (const u of f.units) if (u.kind !== HIDDEN_KIND && !seen.has(u.id)) seen.set(u.id, u.name);
    }
    for (const [id, name] of [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const opt = el('option', '', name && name !== id ? `${id} · ${name}` : id);
      opt.value = id;
      pick.append(opt);
    }
    if (selected && !seen.has(selected)) selected = null;
    pick.value = selected || '';
  }

  /** Board coordinates to screen pixels (relative), for the label boxes: the plot area's
   *  size (as last drawn: plotly widens margins for tick labels) and the axis ranges set by
   *  boardFrame; equal scales where the axes are anchored. */
  function pixelMap(layout) {
    const node = $('board');
    const size = node._fullLayout && node._fullLayout._size;
    const w = Math.max(size ? size.w : (node.clientWidth || 700) - layout.margin.l - layout.margin.r, 100);
    const h = Math.max(size ? size.h : layout.height - layout.margin.t - layout.margin.b, 100);
    const [x0, x1] = layout.xaxis.range;
    const [y0, y1] = layout.yaxis.range;
    let sx = w / Math.abs(x1 - x0);
    let sy = h / Math.abs(y1 - y0);
    if (layout.yaxis.scaleanchor) { sx = Math.min(sx, sy); sy = sx; }
    const up = y1 > y0 ? 1 : -1;
    const toPx = (x, y) => [(x - x0) * sx, -(y - y0) * sy * up];
    toPx.bounds = [0, -Math.abs(y1 - y0) * sy, Math.abs(x1 - x0) * sx, 0];
    return toPx;
  }
  // A narrow window (a phone; scrubber.css lays the page out for it): a board about as tall as
  // it is wide, without its title (the position line says it), thin margins that grow to fit
  // the tick labels, the legend's title on its own line; a chart's title smaller, under the
  // modebar. On a touch screen a drag scrolls the page instead of zooming (plotly.js #2844; the
  // modebar still offers zoom and pan).
  const NARROW = window.matchMedia('(max-width: 600px)');
  const TOUCH = window.matchMedia('(pointer: coarse)');
  function fitNarrow(layout, node) {
    if (TOUCH.matches) layout.dragmode = false;
    if (!NARROW.matches) return;
    layout.margin = { l: 8, r: 12, t: 24, b: 8 };
    for (const axis of [layout.xaxis, layout.yaxis]) {
      if (axis) Object.assign(axis, { automargin: true, title: Object.assign({}, axis.title, { standoff: 4 }) });
    }
    if (layout.legend && layout.legend.title) {
      layout.legend.title = { text: layout.legend.title.text.replace(/ ·$/, ''), side: 'top' };
    }
    if (node.id === 'board') {
      layout.title = { text: '' };
      layout.height = Math.min(layout.height, (node.clientWidth || window.innerWidth) + 90);
    } else if (layout.title) {  // under the modebar (a touch screen always shows it)
      layout.margin.t = 64;
      Object.assign(layout.title, { font: { size: 13 }, yref: 'container', y: 1, yanchor: 'top', pad: { t: 28 } });
    }
  }
  NARROW.addEventListener('change', () => {
    if (!P) return;
    chartsDrawn = {};
    showTab(activeTab);
    drawWinprob();
    drawn = -1;
    schedule();
  });
  function drawBoard(n) {
    const f = frames[n];
    const sideIds = f.sides.map((s) => s.id);
    for (const u of f.units) if (!sideIds.includes(u.side)) sideIds.push(u.side);
    names = Object.fromEntries(f.sides.map((s) => [s.id, s.name]));
    colours = Object.fromEntries(sideIds.map((s, i) => [s, PALETTE[i % PALETTE.length]]));
    const [pts, wh] = placements(f);
    const traces = [];
    const layout = {
      title: { text: boardTitle(f), x: 0.01, xanchor: 'left' }, height: f.board.height_px,
      margin: { l: 50, r: 10, t: 40, b: 40 },
      legend: { orientation: 'h', yanchor: 'top', y: -0.12, x: 0, title: { text: 'label: id damage/strength · fill fades with damage ·' } },
      uirevision: 'wake-board', plot_bgcolor: 'white', hovermode: 'closest',
    };
    boardFrame(f, layout, traces);
    fitNarrow(layout, $('board'));
    const focusIds = new Set(n > 0 ? P.events[n - 1][2] : []);
    const places = placeLabels(f, pts, pixelMap(layout), focusIds);
    const dropped = [...places.values()].filter((at) => at === null).length;
    drawFeatures(f, traces);
    sideIds.forEach((sid) => {
      const drawnShapes = f.units.filter((u) => u.side === sid && u.shapes);
      if (drawnShapes.length) drawShapes(drawnShapes, names[sid] || sid, colours[sid], traces, places);
    });
    drawOverlays(f, traces);
    sideIds.forEach((sid) => {
      const name = names[sid] || sid;
      const mine = f.units.filter((u) => u.side === sid && pts[u.id]);
      const active = mine.filter((u) => u.status === 'active');
      const out = mine.filter((u) => u.status !== 'active');
      traces.push(unitTrace(name, active, pts, name, colours[sid], false, places));
      if (out.length && showOut) traces.push(unitTrace(`${name} (out)`, out, pts, name, colours[sid], true, places));
    });
    highlight(n, f, pts, layout, traces, places);
    drawRings(f, pts, traces);
    const board = $('board');
    board.dataset.labelsHidden = String(dropped);
    Plotly.react(board, traces, layout, { displaylogo: false, responsive: true });
    if (!board.wakeClick) { // a click on a unit selects it (again: clears it)
      board.wakeClick = true;
      board.on('plotly_click', (e) => {
        const pt = e && e.points && e.points[0];
        if (!pt || pt.data.meta !== 'unit' || typeof pt.customdata !== 'string') return;
        select(pt.customdata === selected ? null : pt.customdata);
      });
    }
    showUnit(f, wh);
  }

  // --- strip and charts, built once; cursors are DOM lines over them ---------------------------
  function turnMarks() {
    const step = Math.max(1, Math.ceil(P.turns.length / MAX_TURN_MARKS));
    return P.turns.filter((_, i) => i % step === 0);
  }
  function drawStrip() {
    const bounds = [...P.phases, ['end', length]];
    const phases = [...new Set(P.phases.map((p) => p[0]))].sort();
    const spans = bounds.slice(0, -1).map((b, i) => [b, bounds[i + 1]]);
    const traces = [{
      type: 'bar', x: spans.map(([[, s], [, e]]) => (s + Math.max(e, s + 0.5)) / 2),
      width: spans.map(([[, s], [, e]]) => Math.max(e - s, 0.5)), y: spans.map(() => 1), base: 0,
      marker: { color: spans.map(([[p]]) => STRIP_PALETTE[phases.indexOf(p) % STRIP_PALETTE.length]), line: { width: 0 } },
      customdata: spans.map(([[, s]]) => s), text: spans.map(([[p]]) => esc(p)),
      hovertemplate: '%{customdata}: %{text}<extra></extra>', textposition: 'none', showlegend: false,
    }];
    for (const [kind, [colour, symbol]] of Object.entries(SWING_STYLE)) {
      const of = swings.filter((s) => s[1] === kind);
      if (!of.length) continue;
      traces.push({ type: 'scatter', x: of.map((s) => s[0]), y: of.map(() => 0.5), mode: 'markers',
        marker: { color: colour, symbol, size: 9 }, name: kind, text: of.map((s) => esc(s[2])),
        hovertemplate: `event %{x}: %{text}<extra>${kind}</extra>` });
    }
    const marks = turnMarks();
    const layout = {
      height: 112, margin: { l: 10, r: 10, t: 26, b: 28 },
      xaxis: { range: [0, Math.max(length, 1)], showgrid: false, fixedrange: true },
      yaxis: { visible: false, range: [0, 1], fixedrange: true }, showlegend: false, bargap: 0,
      shapes: marks.map(([, s]) => ({ type: 'line', x0: s, x1: s, y0: 0, y1: 1, line: { color: '#555', width: 1 } })),
      annotations: marks.map(([t, s]) => ({ x: s, y: 1, text: `T${t}`, showarrow: false, yanchor: 'bottom', xanchor: 'left', font: { size: 10 } })),
      dragmode: false,
    };
    Plotly.react($('strip'), traces, layout, { displayModeBar: false, responsive: true });
    addCursor($('strip'));
  }
  function seriesFor(key) {
    const all = P.series[key] || {};
    if (key !== 'dmg_unit') return all;
    return Object.fromEntries(Object.entries(all).filter(([name]) => unitsShown.has(name)));
  }
  function drawChart(key) {
    const node = document.querySelector(`[data-chart="${key}"]`);
    const [title, yTitle] = CHARTS[key];
    const series = seriesFor(key);
    const byName = {};
    P.sideOrder.forEach((sid, i) => { byName[P.sides[sid]] = PALETTE[i % PALETTE.length]; });
    const traces = Object.entries(series).map(([name, points], i) => {
      const xs = points.map((p) => p[0]);
      const ys = points.map((p) => p[1]);
      const sizes = xs.map(() => 6);
      if (xs.length && xs[xs.length - 1] < length) { xs.push(length); ys.push(ys[ys.length - 1]); sizes.push(0); }
      const colour = (key !== 'dmg_unit' && byName[name]) || PALETTE[i % PALETTE.length];
      return { type: 'scatter', name: esc(name), x: xs, y: ys, mode: 'lines+markers', line: { shape: 'hv', color: colour, width: 2 },
        marker: { size: sizes, color: colour }, customdata: xs, hovertemplate: `event %{x}<br>%{y}<extra>${esc(name)}</extra>` };
    });
    const marks = turnMarks();
    const layout = {
      title: { text: esc(title), x: 0.01, xanchor: 'left' }, height: 300, margin: { l: 50, r: 10, t: 50, b: 40 },
      plot_bgcolor: 'white', legend: { orientation: 'h', yanchor: 'top', y: -0.25, x: 0 },
      xaxis: { title: { text: 'event' }, range: [0, Math.max(length, 1)], showgrid: true, gridcolor: '#EEEEEE', zeroline: false },
      yaxis: { title: { text: yTitle }, showgrid: true, gridcolor: '#EEEEEE', zeroline: false },
      shapes: marks.map(([, s]) => ({ type: 'line', x0: s, x1: s, xref: 'x', y0: 0, y1: 1, yref: 'paper', layer: 'below', line: { color: '#BBBBBB', width: 1, dash: 'dot' } })),
      annotations: traces.length ? marks.map(([t, s]) => ({ x: s, y: 1, xref: 'x', yref: 'paper', text: `T${t}`, showarrow: false, xanchor: 'left', yanchor: 'top', font: { size: 9, color: '#888888' } }))
        : [{ text: 'no data', xref: 'paper', yref: 'paper', x: 0.5, y: 0.5, showarrow: false, font: { size: 14, color: '#888888' } }],
    };
    fitNarrow(layout, node);
    Plotly.react(node, traces, layout, { displaylogo: false, responsive: true });
    addCursor(node);
    chartsDrawn[key] = true;
  }
  function addCursor(node) {
    if (node.wakeCursor) return;
    node.wakeCursor = true;
    const line = el('div', 'cursor');
    line.append(el('span'));
    node.append(line);
    node.on('plotly_relayout', () => moveCursors(pos));
    node.on('plotly_afterplot', () => moveCursors(pos));
    // a click anywhere on the plot (not a drag) jumps to that event
    let down = null;
    node.addEventListener('mousedown', (e) => { down = [e.clientX, e.clientY]; });
    node.addEventListener('click', (e) => {
      if (!down || Math.abs(e.clientX - down[0]) > 4 || Math.abs(e.clientY - down[1]) > 4) return;
      const xa = node._fullLayout && node._fullLayout.xaxis;
      if (!xa) return;
      const box = node.getBoundingClientRect();
      const px = e.clientX - box.left - xa._offset;
      if (px < 0 || px > xa._length) return;
      go(xa.p2l(px));
    });
  }
  function moveCursors(n) {
    const nodes = [$('strip'), $('wp-chart'), ...document.querySelectorAll('#charts .chart')];
    for (const node of nodes) {
      const line = node.querySelector('.cursor');
      const full = node._fullLayout;
      if (!line || !full || !full.xaxis || node.hidden) continue;
      const xa = full.xaxis;
      const ya = full.yaxis;
      line.style.left = `${xa._offset + xa.l2p(n)}px`;
      line.style.top = `${ya._offset}px`;
      line.style.height = `${ya._length}px`;
      line.firstChild.textContent = node.id === 'strip' ? '' : `event ${n}`;
    }
  }
  function showTab(key) {
    activeTab = key;
    for (const b of document.querySelectorAll('.tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === key));
    for (const c of document.querySelectorAll('#charts .chart')) c.hidden = c.dataset.chart !== key;
    $('unit-pick').hidden = key !== 'dmg_unit';
    if (!chartsDrawn[key]) drawChart(key);
    else Plotly.Plots.resize(document.querySelector(`[data-chart="${key}"]`));
    moveCursors(pos);
    fitHeight();
  }
  function buildUnitPick() {
    const all = P.series.dmg_unit || {};
    const last = (pts) => (pts.length ? pts[pts.length - 1][1] : 0);
    const ranked = Object.keys(all).sort((a, b) => last(all[b]) - last(all[a]) || (a < b ? -1 : 1));
    const damaged = ranked.slice(0, TOP_UNITS).filter((n) => last(all[n]) > 0);
    unitsShown = new Set(damaged.length ? damaged : ranked.slice(0, TOP_UNITS));
    const box = document.querySelector('#unit-pick > div');
    box.textContent = '';
    document.querySelector('#unit-pick > summary').textContent = `Units shown (the ${TOP_UNITS} most damaged at first)`;
    for (const name of ranked) {
      const label = el('label');
      const box1 = el('input');
      box1.type = 'checkbox';
      box1.checked = unitsShown.has(name);
      box1.addEventListener('change', () => {
        if (box1.checked) unitsShown.add(name); else unitsShown.delete(name);
        drawChart('dmg_unit');
        moveCursors(pos);
      });
      label.append(box1, ` ${name}`);
      box.append(label);
    }
  }

  // --- win probability (issue 24 item 2) ---------------------------------------------------------
  // Each side's win probability if both sides play as Wake's bots from here (payload.winprob,
  // made by viewer/winprob.py, present only for the umpire or a finished game), its 95 % band,
  // the turning points, a cursor at the current event and a click that jumps, like the charts.
  let wpNotes = {};
  let wpOnly = false;
  const WRAP = 80; // characters a hover line holds before it wraps (a hover box has no wrap)
  function wrapLine(text) {
    const out = [];
    let line = '';
    for (const word of String(text).split(' ')) {
      if (line && line.length + word.length + 1 > WRAP) { out.push(line); line = `  ${word}`; } else line = line ? `${line} ${word}` : word;
    }
    if (line) out.push(line);
    return out;
  }
  function buildWinprob() {
    const W = P.winprob;
    wpNotes = (W && W.notes && typeof W.notes === 'object') ? W.notes : {};
    wpOnly = false;
    const filter = $('wp-only');
    filter.hidden = !Object.keys(wpNotes).length;
    filter.querySelector('input').checked = false;
  }
  function drawWinprob() {
    const W = P.winprob;
    const box = $('winprob');
    box.hidden = !W;
    if (!W) return;
    const node = $('wp-chart');
    const traces = [];
    const lines = [];
    const turning = W.turning || [];
    // a turning point's words go in the hover of the line point it sits on (the marker itself
    // takes no hover: it would tie with that point)
    const told = new Map(turning.map((t) => [`${t.side} ${t.event}`,
      `<br><b>turning point</b><br>${(t.lines || []).flatMap(wrapLine).map(esc).join('<br>')}`]));
    W.sides.forEach((sid) => {
      const pts = W.series[sid] || [];
      const i = P.sideOrder.indexOf(sid);
      const colour = PALETTE[(i < 0 ? 0 : i) % PALETTE.length];
      const name = P.sides[sid] || sid;
      const xs = pts.map((q) => q[0]);
      traces.push({ type: 'scatter', x: [...xs, ...[...xs].reverse()],
        y: [...pts.map((q) => q[3]), ...pts.map((q) => q[2]).reverse()], fill: 'toself',
        fillcolor: rgba(colour, 0.15), line: { width: 0 }, mode: 'lines', hoverinfo: 'skip',
        showlegend: false, name: `${esc(name)} (95 % interval)` });
      lines.push({ type: 'scatter', x: xs, y: pts.map((q) => q[1]), mode: 'lines+markers',
        name: esc(name), line: { color: colour, width: 2 }, marker: { size: 4, color: colour },
        customdata: pts.map((q) => [Math.round(q[2] * 100), Math.round(q[3] * 100), told.get(`${sid} ${q[0]}`) || '', Math.round(q[1] * 100)]),
        hovertemplate: `event %{x}: %{customdata[3]} % (95 % interval %{customdata[0]}–%{customdata[1]} %)%{customdata[2]}<extra>${esc(name)}</extra>` });
    });
    traces.push(...lines);
    traces.push({ type: 'scatter', x: turning.map((t) => t.event), y: turning.map((t) => t.p),
      mode: 'markers', name: 'turning points', customdata: turning.map((t) => t.event),
      marker: { symbol: 'diamond', size: 13, color: '#FFD23F', line: { color: '#222222', width: 1.5 } },
      hoverinfo: 'skip' });
    const marks = turnMarks();
    const layout = {
      title: { text: esc(W.title), x: 0.01, xanchor: 'left', font: { size: 14 } }, height: 300,
      margin: { l: 50, r: 10, t: 40, b: 50 }, plot_bgcolor: 'white', hovermode: 'closest',
      hoverlabel: { align: 'left' },
      legend: { orientation: 'h', yanchor: 'top', y: -0.3, x: 0 },
      xaxis: { title: { text: 'event' }, range: [0, Math.max(length, 1)], showgrid: true, gridcolor: '#EEEEEE', zeroline: false },
      yaxis: { title: { text: 'wins' }, range: [0, 1], tickformat: '.0%', showgrid: true, gridcolor: '#EEEEEE', zeroline: false },
      shapes: marks.map(([, s]) => ({ type: 'line', x0: s, x1: s, xref: 'x', y0: 0, y1: 1, yref: 'paper', layer: 'below', line: { color: '#BBBBBB', width: 1, dash: 'dot' } })),
      annotations: marks.map(([t, s]) => ({ x: s, y: 1, xref: 'x', yref: 'paper', text: `T${t}`, showarrow: false, xanchor: 'left', yanchor: 'top', font: { size: 9, color: '#888888' } })),
    };
    fitNarrow(layout, node);
    node.dataset.turning = turning.map((t) => t.event).join(' ');
    $('wp-about').textContent = `${W.caveat} ${W.about}.`;
    Plotly.react(node, traces, layout, { displaylogo: false, responsive: true });
    addCursor(node);
    if (!node.wakeHover) { // the cursor's label would cover a hover's words
      node.wakeHover = true;
      node.on('plotly_hover', () => node.classList.add('hovering'));
      node.on('plotly_unhover', () => node.classList.remove('hovering'));
    }
  }

  // --- move list ---------------------------------------------------------------------------------
  // The list holds every event, grouped by turn and phase. A long game's list is windowed: only
  // the rows around the current event (or around where the user scrolled) are in the page, with
  // spacers standing for the rest, so a step never lays out 10,000 rows (measured: the whole
  // list in the page made a 10,000-event game's step 3-4x slower). Short games are listed whole.
  const FULL_LIST_MAX = 1200; // items listed whole up to this many
  const WINDOW_HALF = 250; // items either side of the centre when windowed
  const WINDOW_MARGIN = 60; // re-centre when the current row comes this close to an edge
  const ROW_EST_PX = 19; // a spacer's height per item not in the page (rows may wrap)
  const filters = { side: new Set(), unit: new Set(), kind: new Set() };
  let groupOf = []; // seq -> index into groupLabels (seq 0, the start, has none)
  let groupLabels = [];
  let items = []; // what the filters keep: ['g', group] headings and ['r', seq] rows
  let itemIndex = new Map(); // seq -> index into items
  let win = [0, 0];
  let built = false;
  function buildMoves() {
    groupOf = [-1];
    groupLabels = [];
    let key = null;
    P.events.forEach((ev, i) => {
      // grouped as the log counts them: the turn and phase after the event (so the event
      // that starts a phase heads its group)
      const f = frames[i + 1];
      const k = `${f.turn}\u0000${f.phase}`;
      if (k !== key) {
        key = k;
        groupLabels.push(`Turn ${f.turn} · ${f.phase}`);
      }
      groupOf.push(groupLabels.length - 1);
    });
    const choices = {
      side: [...new Set(P.events.map((e) => e[1]).filter(Boolean))].sort(),
      unit: [...new Set(P.events.flatMap((e) => e[2]))].sort(),
      kind: [...P.kinds].sort(),
    };
    for (const box of document.querySelectorAll('.filter')) {
      const what = box.dataset.filter;
      const inner = box.querySelector('div');
      inner.textContent = '';
      filters[what].clear();
      box.querySelector('summary').textContent = `${what[0].toUpperCase()}${what.slice(1)}: all`;
      for (const value of choices[what]) {
        const label = el('label');
        const input = el('input');
        input.type = 'checkbox';
        input.addEventListener('change', () => {
          if (input.checked) filters[what].add(value); else filters[what].delete(value);
          const n = filters[what].size;
          box.querySelector('summary').textContent = `${what[0].toUpperCase()}${what.slice(1)}: ${n ? `${n} chosen` : 'all'}`;
          applyFilters();
        });
        label.append(input, ` ${what === 'side' ? (P.sides[value] || value) : value}`);
        inner.append(label);
      }
    }
    built = true;
    applyFilters();
  }
  function moveRow(seq) {
    if (seq === 0) {
      const start = el('div', 'move', '');
      start.dataset.seq = '0';
      start.append(el('span', 'seq', '0'), el('span', 'side', ''), el('span', 'kind', ''), el('span', 'text', 'Start of the game'));
      return start;
    }
    const ev = P.events[seq - 1];
    const row = el('div', ev[5] ? 'move auto' : 'move');
    row.setAttribute('role', 'listitem');
    row.dataset.seq = String(seq);
    row.append(
      el('span', 'seq', seq),
      el('span', 'side', ev[1] ? (P.sides[ev[1]] || ev[1]) : ''),
      el('span', 'kind', P.kinds[ev[0]]),
      el('span', 'text', ev[3]),
    );
    const text = notes.text[String(seq)];
    if (typeof text === 'string' && text) {
      const mark = el('span', 'annotation', `✎ ${text}`);
      mark.title = text;
      row.append(mark);
    }
    const auto = wpNotes[String(seq)]; // issue 24 item 2: the analysis's notes, apart
    if (typeof auto === 'string' && auto) {
      const mark = el('span', 'analysis-note', `Analysis (bot rollouts): ${auto}`);
      mark.title = auto;
      row.append(mark);
    }
    return row;
  }
  // annotations (issue 14): {text: {seq: "#1 disputed (Ann): ..."}, only: true when the page's
  // annotation filter is set (then only the events it keeps are listed); plain text only
  let notes = { text: {}, only: false };
  let notesKey = '';
  function showNotes(given) {
    const next = given && typeof given === 'object' ? given : { text: {}, only: false };
    const key = JSON.stringify(next);
    if (key === notesKey || !built) return;
    notesKey = key;
    notes = { text: next.text || {}, only: Boolean(next.only) };
    applyFilters();
  }
  function applyFilters() {
    const any = filters.side.size || filters.unit.size || filters.kind.size || notes.only || wpOnly;
    items = any ? [] : [['r', 0]];
    itemIndex = new Map(any ? [] : [[0, 0]]);
    let count = 0;
    let group = -1;
    P.events.forEach((ev, i) => {
      const ok = !any || ((!filters.side.size || filters.side.has(ev[1]))
        && (!filters.unit.size || ev[2].some((u) => filters.unit.has(u)))
        && (!filters.kind.size || filters.kind.has(P.kinds[ev[0]]))
        && (!notes.only || Object.prototype.hasOwnProperty.call(notes.text, String(i + 1)))
        && (!wpOnly || Object.prototype.hasOwnProperty.call(wpNotes, String(i + 1))));
      if (!ok) return;
      count += 1;
      if (groupOf[i + 1] !== group) {
        group = groupOf[i + 1];
        items.push(['g', group]);
      }
      itemIndex.set(i + 1, items.length);
      items.push(['r', i + 1]);
    });
    $('move-count').textContent = `${count} of ${length} events (click one to go there)`;
    current = null;
    renderWindow(itemIndex.has(pos) ? itemIndex.get(pos) : 0);
    markMove(pos, true);
  }
  let rowEls = new Map(); // seq -> row element, for the rows in the page
  function renderWindow(centre) {
    const list = $('moves');
    const whole = items.length <= FULL_LIST_MAX;
    const a = whole ? 0 : Math.max(0, Math.min(centre - WINDOW_HALF, items.length - 2 * WINDOW_HALF));
    const b = whole ? items.length : Math.min(items.length, a + 2 * WINDOW_HALF);
    win = [a, b];
    rowEls = new Map();
    const frag = document.createDocumentFragment();
    const spacer = (n, which) => {
      const gap = el('div', `spacer ${which}`);
      gap.style.height = `${n * ROW_EST_PX}px`;
      gap.setAttribute('aria-hidden', 'true');
      return gap;
    };
    if (a > 0) frag.append(spacer(a, 'above'));
    for (let k = a; k < b; k += 1) {
      const [kind, value] = items[k];
      if (kind === 'g') {
        const head = el('div', 'group', groupLabels[value]);
        head.setAttribute('role', 'heading');
        frag.append(head);
      } else {
        const row = moveRow(value);
        rowEls.set(value, row);
        frag.append(row);
      }
    }
    if (b < items.length) frag.append(spacer(items.length - b, 'below'));
    list.textContent = '';
    list.append(frag);
    if (current) current = rowEls.get(Number(current.dataset.seq)) || null;
  }
  // a user scrolling a windowed list into a spacer: bring the rows there into the page
  let scrollFrame = 0;
  function onMovesScroll() {
    if (scrollFrame || items.length <= FULL_LIST_MAX) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = 0;
      const list = $('moves');
      const above = list.querySelector('.spacer.above');
      const below = list.querySelector('.spacer.below');
      const top = list.scrollTop;
      const bottom = top + list.clientHeight;
      let at = null;
      if (above && top < above.offsetHeight) at = Math.floor(top / ROW_EST_PX);
      else if (below && bottom > below.offsetTop) at = win[1] + Math.floor((top - below.offsetTop) / ROW_EST_PX);
      if (at === null) return;
      at = Math.max(0, Math.min(items.length - 1, at));
      renderWindow(at);
      const seq = items.slice(at).find((it) => it[0] === 'r');
      const row = seq && rowEls.get(seq[1]);
      if (row) list.scrollTop = row.offsetTop;
      if (rowEls.has(pos)) markMove(pos, true);
    });
  }
  let current = null;
  function markMove(n, force) {
    if (!built) return;
    const index = itemIndex.get(n);
    if (index !== undefined && items.length > FULL_LIST_MAX
        && (index < win[0] || index >= win[1]
          || (win[0] > 0 && index < win[0] + WINDOW_MARGIN)
          || (win[1] < items.length && index >= win[1] - WINDOW_MARGIN))) {
      renderWindow(index);
    }
    const row = rowEls.get(n) || null;
    if (row === current && !force) return;
    if (current) { current.classList.remove('current'); current.removeAttribute('aria-current'); }
    current = row;
    if (!row) return;
    row.classList.add('current');
    row.setAttribute('aria-current', 'true');
    const list = $('moves');
    if (list.clientHeight === 0) return;
    const top = row.offsetTop;
    const bottom = top + row.offsetHeight;
    if (top < list.scrollTop + 24 || bottom > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  // --- start ---------------------------------------------------------------------------------------
  function init() {
    const slider = $('slider');
    slider.addEventListener('input', () => go(Number(slider.value)));
    for (const b of document.querySelectorAll('[data-go]')) b.addEventListener('click', () => go(target(b.dataset.go)));
    for (const b of document.querySelectorAll('.tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));
    $('moves').addEventListener('scroll', onMovesScroll, { passive: true });
    $('moves').addEventListener('click', (e) => {
      const row = e.target.closest('.move');
      if (row) go(Number(row.dataset.seq));
    });
    $('unit-select').addEventListener('change', (e) => select(e.target.value));
    $('wp-only').querySelector('input').addEventListener('change', (e) => {
      wpOnly = e.target.checked;
      applyFilters();
    });
    $('show-out').addEventListener('change', (e) => {
      showOut = e.target.checked;
      drawn = -1; // the same position, drawn again without (or with) them
      schedule();
    });
    new ResizeObserver(fitHeight).observe(document.body);
  }

  /** A game (or another view of it) arrived: everything drawn once per game is built here. */
  function start(data) {
    P = data;
    length = P.length;
    P.sideOrder = P.frame0.sides.map((s) => s.id);
    turnStarts = P.turns.map((t) => t[1]);
    swings = P.swings;
    buildFrames();
    $('loading').hidden = true;
    $('controls').hidden = false;
    $('app').setAttribute('aria-busy', 'false');
    $('slider').max = String(length);
    current = null;
    chartsDrawn = {};
    buildUnitPick();
    buildUnitSelect();
    buildWinprob();
    buildMoves();
    drawStrip();
    drawWinprob();
    showTab(activeTab);
    drawn = -1;
    fitHeight();
  }

  init();

  send('streamlit:componentReady', { apiVersion: 1 });
})();
