/* Wake scrubber: the event strip (phases as coloured spans, swings as marks, turn ticks) and
 * the four charts under their tabs (damage per side, damage per unit with its "Units shown"
 * picker, victory points, luck), built once per game. Each has a cursor, a DOM line moved over
 * it at every step (never a redraw), and a click on it (not a drag) jumps to that event.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $, el, esc, PALETTE } = ctx;
  const MAX_TURN_MARKS = 40;
  const TOP_UNITS = 12;
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
  let unitsShown = null;

  /** [turn, first event] of the turns marked on the x axes (at most MAX_TURN_MARKS). */
  function turnMarks() {
    const step = Math.max(1, Math.ceil(ctx.P.turns.length / MAX_TURN_MARKS));
    return ctx.P.turns.filter((_, i) => i % step === 0);
  }
  function drawStrip() {
    const P = ctx.P;
    const length = ctx.length;
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
      const of = ctx.swings.filter((s) => s[1] === kind);
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
    const all = ctx.P.series[key] || {};
    if (key !== 'dmg_unit') return all;
    return Object.fromEntries(Object.entries(all).filter(([name]) => unitsShown.has(name)));
  }
  function drawChart(key) {
    const P = ctx.P;
    const length = ctx.length;
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
    ctx.fitNarrow(layout, node);
    Plotly.react(node, traces, layout, { displaylogo: false, responsive: true });
    addCursor(node);
    ctx.chartsDrawn[key] = true;
  }
  /** A cursor line over the chart in ``node`` (once), and its click-to-jump. */
  function addCursor(node) {
    if (node.wakeCursor) return;
    node.wakeCursor = true;
    const line = el('div', 'cursor');
    line.append(el('span'));
    node.append(line);
    node.on('plotly_relayout', () => moveCursors(ctx.pos));
    node.on('plotly_afterplot', () => moveCursors(ctx.pos));
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
      ctx.go(xa.p2l(px));
    });
  }
  /** Every cursor (strip, win probability, charts) to event ``n``. */
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
    ctx.activeTab = key;
    for (const b of document.querySelectorAll('.tabs button')) b.setAttribute('aria-selected', String(b.dataset.tab === key));
    for (const c of document.querySelectorAll('#charts .chart')) c.hidden = c.dataset.chart !== key;
    $('unit-pick').hidden = key !== 'dmg_unit';
    if (!ctx.chartsDrawn[key]) drawChart(key);
    else Plotly.Plots.resize(document.querySelector(`[data-chart="${key}"]`));
    moveCursors(ctx.pos);
    ctx.fitHeight();
  }
  /** The "Units shown" picker of the damage-per-unit chart: the most damaged first. */
  function buildUnitPick() {
    const all = ctx.P.series.dmg_unit || {};
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
        moveCursors(ctx.pos);
      });
      label.append(box1, ` ${name}`);
      box.append(label);
    }
  }

  for (const b of document.querySelectorAll('.tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));

  Object.assign(ctx, { turnMarks, drawStrip, addCursor, moveCursors, showTab, buildUnitPick });
})();
