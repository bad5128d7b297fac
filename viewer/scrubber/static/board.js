/* Wake scrubber: the board at one position (a port of viewer/figures.board_figure: same
 * colours, markers, shapes, overlays, highlight). Its frame (a continuous board framed on the
 * action, a grid's cells, a zone board's seats and zones), its features, each side's shapes
 * and units, then the overlays, the current event and the selected unit's reach, in that
 * order (later layers on top), drawn with one Plotly.react. A click on a unit selects it.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $, esc, fmt, rgba } = ctx;
  const SHAPE_FILL_ALPHA = { base: 0.10, zone: 0.30, heading: 0.90 };
  const FEATURE_FILL = 'rgba(128,128,128,0.30)';
  const FEATURE_LINE = '#7F7F7F';
  const OUT_LINE = '#A0A0A0';
  const ACTION_PAD = 0.15;
  const ACTION_MIN = 0.6;

  function extent(u) {
    if (!u.position || !u.shapes) return [[0, 0]];
    const out = [];
    for (const s of u.shapes) for (const [x, y] of s.ring) out.push([x - u.position[0], y - u.position[1]]);
    return out.length ? out : [[0, 0]];
  }
  /** A continuous board's axis ranges: a square around the active units, or the whole board. */
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
        // the label most boxes share (Iron & Oak's "depth 5 ↑") is left to the hover, so the
        // exceptions (shoals, banks, mines) stand out and ship names have room (issue 21 item 10)
        const common = ctx.commonCellLabel(cells);
        for (const c of cells) if (c.label && c.label !== common) {
          notes.push({ x: c.cell[0] + 0.03, y: c.cell[1] + 0.03, xref: 'x', yref: 'y', text: esc(c.label), showarrow: false,
            xanchor: 'left', yanchor: 'top', font: { size: 9, color: '#888888' } });
        }
      }
      const range = (n) => Array.from({ length: n }, (_, i) => i);
      layout.xaxis = { range: [0, cols], tickvals: range(cols).map((c) => c + 0.5), ticktext: range(cols).map(String), showgrid: false, zeroline: false, title: { text: 'column' } };
      layout.yaxis = { range: [rows, -0.25], tickvals: range(rows).map((r) => r + 0.5), ticktext: range(rows).map(String), showgrid: false, zeroline: false, title: { text: 'row' }, scaleanchor: 'x', scaleratio: 1 };
    } else if (ctx.isRing(f)) {
      ctx.tableFrame(f, layout);
      return;
    } else {
      const [seats, zones] = ctx.zoneAxes(f);
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
    traces.push(ctx.fillTrace(group, features, FEATURE_FILL, FEATURE_LINE, group));
    const labelled = features.filter((g) => g.at).map((g) => {
      const lines = [`<b>${esc(g.name || g.id)}</b> (${esc(g.id)})`];
      if (g.kind) lines.push(`kind: ${esc(g.kind)}`);
      for (const [k, v] of Object.entries(g.details || {})) if (v != null) lines.push(`${esc(k)}: ${esc(fmt(v))}`);
      return [g, lines.join('<br>')];
    });
    if (labelled.length) traces.push(ctx.labelTrace('feature labels', labelled, '#555555', 9, group));
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
    if (out.length) traces.push(ctx.lineTrace(`${sideName} shapes (out)`, out, OUT_LINE, 'dot', 1, sideName));
    for (const style of ['base', 'zone', 'heading']) {
      if (byStyle[style].length) traces.push(ctx.fillTrace(`${sideName} ${style}s`, byStyle[style], rgba(colour, SHAPE_FILL_ALPHA[style]), colour, sideName));
    }
    if (byStyle.arc.length) traces.push(ctx.lineTrace(`${sideName} arcs`, byStyle.arc, rgba(colour, 0.55), 'dot', 1, sideName));
    if (named.length) {
      traces.push({ type: 'scatter', name: `${esc(sideName)} names`, legendgroup: sideName, showlegend: false,
        x: named.map(([, at]) => at.x), y: named.map(([, at]) => at.y), mode: 'text',
        text: named.map(([u]) => esc(ctx.unitLabel(u))), textposition: named.map(([, at]) => at.place),
        textfont: { size: 10, color: '#222222' }, hoverinfo: 'skip' });
    }
    if (labelled.length) traces.push(ctx.labelTrace(`${sideName} labels`, labelled, '#111111', 11, sideName));
  }
  function boardTitle(f) {
    let title = `${ctx.P.title.ruleset} · ${ctx.P.title.scenario} · turn ${f.turn}, ${f.phase}`;
    if (f.result) {
      const w = f.result.winner;
      title += ` · result: ${w ? (ctx.names[w] || w) : 'draw'}`;
    }
    return esc(title);
  }

  /** Draw the board at event ``n``. */
  function drawBoard(n) {
    const f = ctx.frames[n];
    const sideIds = f.sides.map((s) => s.id);
    for (const u of f.units) if (!sideIds.includes(u.side)) sideIds.push(u.side);
    const names = Object.fromEntries(f.sides.map((s) => [s.id, s.name]));
    const colours = Object.fromEntries(sideIds.map((s, i) => [s, ctx.PALETTE[i % ctx.PALETTE.length]]));
    ctx.names = names;
    ctx.colours = colours;
    const [pts, wh] = ctx.placements(f);
    const traces = [];
    const layout = {
      title: { text: boardTitle(f), x: 0.01, xanchor: 'left' }, height: f.board.height_px,
      margin: { l: 50, r: 10, t: 40, b: 40 },
      legend: { orientation: 'h', yanchor: 'top', y: -0.12, x: 0, title: { text: 'label: unit damage/strength · fill fades with damage ·' } },
      uirevision: 'wake-board', plot_bgcolor: 'white', hovermode: 'closest',
    };
    boardFrame(f, layout, traces);
    ctx.fitNarrow(layout, $('board'));
    const focusIds = new Set(n > 0 ? ctx.P.events[n - 1][2] : []);
    const ring = ctx.isRing(f);
    const places = ring ? new Map() : ctx.placeLabels(f, pts, ctx.pixelMap(shownRanges(layout)), focusIds);
    let dropped = [...places.values()].filter((at) => at === null).length;
    drawFeatures(f, traces);
    sideIds.forEach((sid) => {
      const drawnShapes = f.units.filter((u) => u.side === sid && u.shapes);
      if (drawnShapes.length) drawShapes(drawnShapes, names[sid] || sid, colours[sid], traces, places);
    });
    ctx.drawOverlays(f, traces, pts);
    if (ring) dropped = ctx.drawTable(f, layout, traces); // cards, stacks, markers
    else sideIds.forEach((sid) => {
      const name = names[sid] || sid;
      const mine = f.units.filter((u) => u.side === sid && pts[u.id]);
      const active = mine.filter((u) => u.status === 'active');
      const out = mine.filter((u) => u.status !== 'active');
      traces.push(ctx.unitTrace(name, active, pts, name, colours[sid], false, places));
      if (out.length && ctx.showOut) traces.push(ctx.unitTrace(`${name} (out)`, out, pts, name, colours[sid], true, places));
    });
    ctx.highlight(n, f, pts, layout, traces, places);
    ctx.drawRings(f, pts, traces);
    const board = $('board');
    board.dataset.labelsHidden = String(dropped);
    Plotly.react(board, traces, layout, { displaylogo: false, responsive: true });
    ctx.placeExplainLink();
    if (!board.wakeClick) { // a click on a unit selects it (again: clears it)
      board.wakeClick = true;
      board.on('plotly_click', (e) => {
        const pt = e && e.points && e.points[0];
        if (!pt || pt.data.meta !== 'unit' || typeof pt.customdata !== 'string') return;
        ctx.select(pt.customdata === ctx.selected ? null : pt.customdata);
      });
      // zoomed in, labels left off for want of room may fit: place them again (issue 21
      // item 10: "the rest appear on zoom or hover"); a reset puts back the board's own window
      board.on('plotly_relayout', (e) => {
        const keys = Object.keys(e || {});
        if (!keys.some((k) => k.startsWith('xaxis') || k.startsWith('yaxis'))) return;
        zoomed = !keys.some((k) => k.endsWith('autorange'));
        ctx.drawn = -1;
        ctx.schedule();
      });
    }
    ctx.showUnit(f, wh);
  }

  let zoomed = false;  // the person zoomed or panned the board: its ranges are theirs
  /** ``layout`` with the ranges the board shows: the person's zoom, once they zoomed. */
  function shownRanges(layout) {
    const full = $('board')._fullLayout;
    if (!zoomed || !full || !layout.xaxis || !layout.yaxis) return layout;
    return {
      ...layout,
      xaxis: { ...layout.xaxis, range: full.xaxis.range.slice() },
      yaxis: { ...layout.yaxis, range: full.yaxis.range.slice() },
    };
  }

  $('show-out').addEventListener('change', (e) => {
    ctx.showOut = e.target.checked;
    ctx.drawn = -1; // the same position, drawn again without (or with) them
    ctx.schedule();
  });

  Object.assign(ctx, { drawBoard });
})();
