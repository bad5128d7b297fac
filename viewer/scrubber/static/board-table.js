/* Wake scrubber: a zone board whose seats sit round a table (board.seating "ring"). Each seat
 * is a panel on the rim of an oval table, in seating order (the first at the bottom, then
 * clockwise, so the last sits beside the first). A panel holds the seat's zones two to a row
 * in the board's zone order; in each zone, the units with a ``tile`` are cards (their name,
 * the tile's values, their damage), private units are a face-down stack with a count (a
 * side's view holds only anonymous placeholders for others' cards), and the other units
 * small markers, each labelled in its own slot (never over another label, never outside its
 * zone: a zone too full says "+N" and the hover names them all).
 *
 * Coordinates are design pixels (y up); the axes keep them square, and text is sized by how
 * many screen pixels a design pixel gets.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { esc, rgba } = ctx;
  const PW = 290; // panel width
  const PAD = 5;
  const HEAD = 16; // the seat's name and VP
  const CAP = 11; // a zone's caption
  const TH = 40; // a card tile
  const STRIP = 14; // one line of markers
  const GAP = 12; // between panels
  const CW = (PW - 3 * PAD) / 2; // a zone's width
  const SLOT = CW / 2; // a marker and its label
  const BACK_W = 16; const BACK_H = 22; // a card back
  const TABLE_RATIO = 1.5; // the table's width over its depth
  const OUT_GREY = '#A0A0A0';

  const seatOf = (u) => ((u.details && typeof u.details.seat === 'string' && u.details.seat) ? u.details.seat : u.side);
  const hasTile = (u) => !!(u.tile && Object.keys(u.tile).length);
  const isRing = (f) => f.board.kind === 'zones' && f.board.seating === 'ring';

  // the zones that hold a card tile at any event: their rows are tall all game (no jumps)
  let tiledFor = null; let tiled = new Set();
  function tiledZones() {
    if (tiledFor !== ctx.P) {
      tiledFor = ctx.P;
      tiled = new Set();
      for (const fr of ctx.frames) for (const u of fr.units) if (hasTile(u) && u.zone != null) tiled.add(u.zone);
    }
    return tiled;
  }
  function rowsOf(zones) {
    const tall = tiledZones();
    const rows = [];
    for (let i = 0; i < zones.length; i += 2) {
      const z = zones.slice(i, i + 2);
      const isTall = z.some((x) => tall.has(x));
      rows.push({ zones: z, tall: isTall, h: CAP + (isTall ? TH + STRIP : 2 * STRIP) });
    }
    return rows;
  }
  /** Seat ``i`` of ``n`` on the edge of a w x h table (centred), from the bottom's middle
   *  going clockwise on screen (left, top, right), ``shift`` of a seat's spacing along. */
  function onEdge(i, n, w, h, shift) {
    const per = 2 * (w + h);
    let d = (((i + shift) * per) / n) % per; // along the edge from the bottom's middle
    const legs = [[w / 2, [-1, 0]], [h, [0, 1]], [w, [1, 0]], [h, [0, -1]], [w / 2, [-1, 0]]];
    let [x, y] = [0, -h / 2];
    for (const [len, [dx, dy]] of legs) {
      const step = Math.min(d, len);
      x += dx * step; y += dy * step; d -= step;
      if (d <= 0) break;
    }
    return [x, y];
  }
  /** Panel centres round a table, far enough apart that no two panels meet, the table's
   *  shape (its width over its depth, a seat's shift) chosen to draw the panels largest in a
   *  plot of ``W`` x ``H`` pixels. */
  function seatCentres(n, ph, W, H) {
    let best = null;
    for (const ratio of [0.25, 0.35, 0.5, 0.7, 1, 1.4, 2, 2.8, 4]) for (const shift of [0, 0.5]) {
      const unit = Array.from({ length: n }, (_, i) => onEdge(i, n, ratio, 1, shift));
      let t = (ph + GAP) / 2;
      for (let i = 0; i < n; i += 1) for (let j = i + 1; j < n; j += 1) {
        const dx = Math.abs(unit[i][0] - unit[j][0]); const dy = Math.abs(unit[i][1] - unit[j][1]);
        t = Math.max(t, Math.min(dx > 1e-9 ? (PW + GAP) / dx : Infinity, dy > 1e-9 ? (ph + GAP) / dy : Infinity));
      }
      const xs = unit.map((p) => p[0] * t); const ys = unit.map((p) => p[1] * t);
      const xr = Math.max(...xs.map(Math.abs)) + PW / 2 + PAD; const yr = Math.max(...ys.map(Math.abs)) + ph / 2 + PAD;
      const k = Math.min(W / (2 * xr), H / (2 * yr));
      // the largest panels; of (nearly) equal ones, the table with the least room to spare
      const better = !best || k > best.k * 1.01 || (k > best.k * 0.99 && xr * yr < best.xr * best.yr);
      if (better) best = { k, xr, yr, a: ratio * t / 2, b: t / 2, centres: xs.map((x, i) => [x, ys[i]]), range: [[-xr, xr], [-yr, yr]] };
    }
    return best;
  }

  /** The table for frame ``f``: panels, zones, tiles, stacks and markers, with every unit's
   *  point (for attack lines, hovers and clicks) and its place in words. */
  function tableLayout(f) {
    const [seats, zones] = ctx.zoneAxes(f);
    const rows = rowsOf(zones);
    const ph = HEAD + rows.reduce((s, r) => s + r.h, 0) + PAD * (rows.length + 1);
    const node = ctx.$('board');
    const W = Math.max((node.clientWidth || 700) - 20, 200);
    const H = Math.max((ctx.narrow() ? Math.min(f.board.height_px, W + 110) : f.board.height_px) - 50, 200);
    const { a, b, centres, range, k } = seatCentres(Math.max(seats.length, 2), ph, W, H);
    const shown = f.units.filter((u) => u.zone != null && (ctx.showOut || u.status === 'active'));
    const pts = {}; const wh = {};
    const panels = []; const tiles = []; const stacks = []; const markers = []; const overflow = [];
    seats.forEach((seat, i) => {
      const [cx, cy] = centres[i];
      const x0 = cx - PW / 2; const y1 = cy + ph / 2;
      const panel = { seat, x0, x1: x0 + PW, y0: cy - ph / 2, y1, cx, cy, zones: [] };
      panels.push(panel);
      let top = y1 - PAD - HEAD;
      for (const row of rows) {
        top -= PAD;
        row.zones.forEach((zone, k) => {
          const zx0 = x0 + PAD + k * (CW + PAD);
          const cell = { zone, x0: zx0, x1: zx0 + CW, y1: top, y0: top - row.h };
          panel.zones.push(cell);
          const here = shown.filter((u) => u.zone === zone && seatOf(u) === seat);
          for (const u of here) wh[u.id] = `zone: ${zone}, seat: ${seat}`;
          const cards = here.filter((u) => hasTile(u) && !u.private);
          const backs = here.filter((u) => u.private);
          const rest = here.filter((u) => !hasTile(u) && !u.private);
          let y = top - CAP; // the content's top
          if (row.tall && cards.length) {
            const w = (CW - (cards.length - 1) * 3) / cards.length;
            cards.forEach((u, m) => {
              const tx0 = zx0 + m * (w + 3);
              tiles.push({ u, x0: tx0, x1: tx0 + w, y0: y - TH, y1: y, side: u.side });
              // lines end in the card's lower right corner, clear of most of its text
              pts[u.id] = [tx0 + w - Math.min(16, w / 4), y - TH + 8];
            });
            y -= TH;
          }
          let x = zx0; // the strip: a stack of card backs, then markers in slots
          const lines = row.tall && cards.length ? 1 : Math.max(1, Math.floor((y - (top - row.h)) / STRIP));
          if (backs.length) {
            const sx0 = zx0 + 2; const sy1 = y - 2;
            const h = Math.min(BACK_H, lines * STRIP - 2);
            stacks.push({ units: backs, side: backs[0].side, x0: sx0, x1: sx0 + BACK_W, y0: sy1 - h, y1: sy1 });
            for (const u of backs) pts[u.id] = [sx0 + BACK_W / 2, sy1 - h / 2];
            x = sx0 + BACK_W + 28; // room for its count
          }
          const perLine = Math.max(1, Math.floor((zx0 + CW - x) / SLOT));
          const firstLine = perLine; const fullLine = Math.max(1, Math.floor(CW / SLOT));
          const room = lines > 1 ? firstLine + (lines - 1) * fullLine : firstLine;
          rest.forEach((u, m) => {
            let line = 0; let col = m;
            if (m >= firstLine) { line = 1 + Math.floor((m - firstLine) / fullLine); col = (m - firstLine) % fullLine; }
            const lx = (line === 0 ? x : zx0) + col * SLOT;
            const ly = y - STRIP / 2 - line * STRIP;
            pts[u.id] = [lx + 5, ly];
            const last = m === room - 1 && rest.length > room;
            if (m < room) markers.push({ u, x: lx + 5, y: ly, w: SLOT - 12, more: last ? rest.length - room + 1 : 0 });
            else { pts[u.id] = markers[markers.length - 1] ? [markers[markers.length - 1].x, markers[markers.length - 1].y] : [lx + 5, ly]; overflow.push(u); }
          });
        });
        top -= row.h;
      }
    });
    return { seats, a, b, ph, panels, tiles, stacks, markers, overflow, pts, wh, range, k };
  }

  const fontFor = (k, base) => Math.max(6, Math.min(base + 1, Math.round(base * k)));
  function fit(text, widthPx, size) { // text cut to what fits in widthPx at font ``size``
    const max = Math.max(3, Math.floor(widthPx / (size * 0.58)));
    return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
  }
  const tileValues = (u) => Object.entries(u.tile).map(([k, v]) => `${k} ${ctx.fmt(v)}`).join(' · ');
  function tileHover(u, sideName) {
    const lines = [`<b>${esc(u.name)}</b>`, `${esc(sideName)} · ${esc(u.kind)}${u.status === 'active' ? '' : ` · ${esc(u.status)}`}`];
    lines.push(esc(tileValues(u)), `damage ${u.damage}/${u.strength}`, '<i>click for details</i>');
    return lines.join('<br>');
  }

  /** The table's frame: the axes, the table, the panels and their zones (boardFrame's part). */
  function tableFrame(f, layout) {
    const geo = ctx.tableGeo;
    const [[x0, x1], [y0, y1]] = geo.range;
    const hidden = { visible: false, showgrid: false, zeroline: false };
    layout.xaxis = { ...hidden, range: [x0, x1] };
    layout.yaxis = { ...hidden, range: [y0, y1], scaleanchor: 'x', scaleratio: 1 };
    layout.legend.title = { text: '' };
    layout.margin = { l: 10, r: 10, t: layout.margin.t, b: 10 };
    // no taller than the table drawn at the width's scale: no empty band above or below it
    layout.height = Math.round(Math.min(layout.height, (y1 - y0) * geo.k + layout.margin.t + 60));
    layout.showlegend = false; // the panels name the sides; attack lines carry their labels
    layout.shapes = [{ type: 'rect', x0: -geo.a, x1: geo.a, y0: -geo.b, y1: geo.b, layer: 'below',
      fillcolor: '#E8EFE6', line: { color: '#B8C8B4', width: 1 } }];
    layout.annotations = [];
  }

  /** Draw the table's contents onto ``layout`` and ``traces`` (the units' layer). */
  function drawTable(f, layout, traces) {
    const geo = ctx.tableGeo;
    const toPx = ctx.pixelMap(layout);
    const k = Math.abs(toPx(1, 0)[0] - toPx(0, 0)[0]) || 1;
    const { colours, names } = ctx;
    const shapes = layout.shapes; const notes = layout.annotations;
    const small = fontFor(k, 9); const body = fontFor(k, 10);
    const vp = Object.fromEntries(f.sides.map((s) => [s.id, s.vp]));
    // the seating order: a line round the table through the seats, the last back to the first
    const loop = geo.panels.map((p) => `${p.cx},${p.cy}`);
    shapes.push({ type: 'path', path: `M ${loop.join(' L ')} Z`, layer: 'below', line: { color: '#9AAE95', width: 2, dash: 'dot' } });
    for (const p of geo.panels) {
      const colour = colours[p.seat] || '#555555';
      const active = f.active === p.seat;
      shapes.push({ type: 'rect', x0: p.x0, x1: p.x1, y0: p.y0, y1: p.y1, fillcolor: 'white', layer: 'below',
        line: { color: colour, width: active ? 4 : 2 } });
      const name = names[p.seat] || p.seat;
      const head = `${name}${name !== p.seat ? ` (${p.seat})` : ''}`;
      notes.push({ x: p.x0 + PAD, y: p.y1 - PAD - HEAD / 2 + 1, xref: 'x', yref: 'y', xanchor: 'left', yanchor: 'middle', showarrow: false,
        text: `<b>${esc(fit(head, (PW - 70) * k, body))}</b>`, font: { size: body, color: colour } });
      if (vp[p.seat] != null) {
        notes.push({ x: p.x1 - PAD, y: p.y1 - PAD - HEAD / 2 + 1, xref: 'x', yref: 'y', xanchor: 'right', yanchor: 'middle', showarrow: false,
          text: `${vp[p.seat]} VP${active ? ' · to act' : ''}`, font: { size: small, color: '#333333' } });
      }
      for (const z of p.zones) {
        shapes.push({ type: 'rect', x0: z.x0, x1: z.x1, y0: z.y0, y1: z.y1, layer: 'below', fillcolor: '#F6F7F9', line: { color: '#D8DCE0', width: 1 } });
        notes.push({ x: z.x0 + 2, y: z.y1 - 1, xref: 'x', yref: 'y', xanchor: 'left', yanchor: 'top', showarrow: false,
          text: esc(z.zone), font: { size: Math.max(6, small - 1), color: '#888888' } });
      }
    }
    const hov = { x: [], y: [], ids: [], text: [] };
    for (const t of geo.tiles) {
      const u = t.u; const colour = colours[u.side] || '#555555';
      const out = u.status !== 'active';
      shapes.push({ type: 'rect', x0: t.x0, x1: t.x1, y0: t.y0, y1: t.y1, layer: 'below',
        fillcolor: out ? '#EEEEEE' : rgba(colour, 0.14), line: { color: out ? OUT_GREY : colour, width: 1.5, dash: out ? 'dot' : 'solid' } });
      const widthPx = (t.x1 - t.x0 - 6) * k;
      const damage = `damage ${u.damage}${out ? ` · ${u.status}` : ''}`;
      const lines = [`<b>${esc(fit(u.name, widthPx, body))}</b>`, esc(fit(tileValues(u), widthPx, small)), esc(fit(damage, widthPx, small))];
      notes.push({ x: t.x0 + 3, y: t.y1 - 2, xref: 'x', yref: 'y', xanchor: 'left', yanchor: 'top', align: 'left', showarrow: false,
        text: lines.join('<br>'), font: { size: small, color: out ? '#888888' : '#222222' }, name: `tile ${esc(u.id)}` });
      const [cx, cy] = [(t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2];
      hov.x.push(cx); hov.y.push(cy); hov.ids.push(u.id); hov.text.push(tileHover(u, names[u.side] || u.side));
    }
    for (const s of geo.stacks) {
      const colour = colours[s.side] || '#555555';
      for (const d of [4, 2, 0]) {
        shapes.push({ type: 'rect', x0: s.x0 + d, x1: s.x1 + d, y0: s.y0 + d / 2, y1: s.y1 + d / 2, layer: 'below',
          fillcolor: rgba(colour, 0.85), line: { color: 'white', width: 1 } });
      }
      notes.push({ x: s.x1 + 6, y: (s.y0 + s.y1) / 2, xref: 'x', yref: 'y', xanchor: 'left', yanchor: 'middle', showarrow: false,
        text: `×${s.units.length}`, font: { size: body, color: '#333333' } });
      const known = s.units.filter((u) => u.kind !== ctx.HIDDEN_KIND).map((u) => esc(u.name));
      const hidden = s.units.length - known.length;
      const lines = [`<b>${esc(names[s.side] || s.side)}: ${s.units.length} face down</b>`];
      if (known.length) lines.push(...known);
      if (hidden) lines.push(`${hidden} hidden from this view`);
      hov.x.push((s.x0 + s.x1) / 2 + 2); hov.y.push((s.y0 + s.y1) / 2); hov.ids.push(s.units[0].id); hov.text.push(lines.join('<br>'));
    }
    if (hov.x.length) {
      traces.push({ type: 'scatter', name: 'cards', showlegend: false, x: hov.x, y: hov.y, mode: 'markers', meta: 'unit',
        marker: { symbol: 'square', size: Math.max(10, TH * k * 0.95), color: 'rgba(0,0,0,0)' },
        customdata: hov.ids, hovertext: hov.text, hovertemplate: '%{hovertext}<extra></extra>' });
    }
    const bySide = new Map();
    for (const m of geo.markers) {
      if (!bySide.has(m.u.side)) bySide.set(m.u.side, []);
      bySide.get(m.u.side).push(m);
    }
    for (const [sid, ms] of bySide) {
      const colour = colours[sid] || '#555555';
      const name = names[sid] || sid;
      traces.push({ type: 'scatter', name: esc(name), legendgroup: name, showlegend: false, meta: 'unit',
        x: ms.map((m) => m.x), y: ms.map((m) => m.y), mode: 'markers+text', textposition: 'middle right',
        text: ms.map((m) => esc(m.more ? `+${m.more} more` : fit(ctx.unitLabel(m.u), m.w * k, small))),
        textfont: { size: small, color: '#222222' }, customdata: ms.map((m) => m.u.id),
        hovertext: ms.map((m) => {
          const all = m.more ? [m.u, ...geo.overflow.filter((u) => u.side === sid)] : [m.u];
          return all.map((u) => `<b>${esc(u.name)}</b> · ${esc(u.kind)}${u.status === 'active' ? '' : ` · ${esc(u.status)}`}`).join('<br>');
        }),
        hovertemplate: '%{hovertext}<extra></extra>',
        marker: { symbol: ms.map((m) => (m.u.status === 'active' ? 'circle' : 'x')), size: 8, color: ms.map((m) => (m.u.status === 'active' ? colour : OUT_GREY)), line: { color: 'white', width: 1 } } });
    }
    return geo.overflow.length;
  }

  // --- attack lines between the cards (viewer/board_table.py attack_path, the same route) ----
  const ROUTE_MARGIN = 3; // how far outside a card a line starts, ends and bends
  function inside(a, b, box) { // how much of the segment a-b runs inside box (Liang-Barsky)
    const dx = b[0] - a[0]; const dy = b[1] - a[1];
    let t0 = 0; let t1 = 1;
    for (const [p, q] of [[-dx, a[0] - box.x0], [dx, box.x1 - a[0]], [-dy, a[1] - box.y0], [dy, box.y1 - a[1]]]) {
      if (p === 0) { if (q <= 0) return 0; continue; }
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r); else t1 = Math.min(t1, r);
      if (t0 >= t1) return 0;
    }
    return (t1 - t0) * Math.hypot(dx, dy);
  }
  function ringOf(box, d) { // eight points round box, d outside it: corners and middles of sides
    const x0 = box.x0 - d; const x1 = box.x1 + d; const y0 = box.y0 - d; const y1 = box.y1 + d;
    const xm = (x0 + x1) / 2; const ym = (y0 + y1) / 2;
    return [[x0, y0], [xm, y0], [x1, y0], [x1, ym], [x1, y1], [xm, y1], [x0, y1], [x0, ym]];
  }
  /** The attack line from unit ``a`` to unit ``t``: from the edge of the attacker's card to
   *  the edge of the target's (a marker's own point), straight where that crosses no card,
   *  else with one bend in the room between cards and panels; of those, the one running
   *  least over cards, then the shortest: never over a card's text where it can go round. */
  function attackPath(a, t) {
    const geo = ctx.tableGeo;
    const boxes = new Map(geo.tiles.map((x) => [x.u.id, x]));
    for (const s of geo.stacks) for (const u of s.units) boxes.set(u.id, s);
    const cards = [...geo.tiles, ...geo.stacks];
    const ends = (id) => (boxes.has(id) ? ringOf(boxes.get(id), ROUTE_MARGIN) : [geo.pts[id]]);
    const over = (p, q) => cards.reduce((sum, box) => sum + inside(p, q, box), 0);
    const cost = (path) => {
      let crossed = 0; let length = 0;
      for (let i = 1; i < path.length; i += 1) {
        crossed += over(path[i - 1], path[i]);
        length += Math.hypot(path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1]);
      }
      return [Math.round(crossed * 1e6) / 1e6, length];
    };
    const less = (x, y) => x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
    const starts = ends(a); const stops = ends(t);
    let best = null; let bestCost = null;
    for (const p of starts) for (const q of stops) {
      const c = cost([p, q]);
      if (!best || less(c, bestCost)) { best = [p, q]; bestCost = c; }
    }
    if (bestCost[0] === 0) return best;
    const bends = [...geo.panels.flatMap((panel) => ringOf(panel, GAP / 2)), ...cards.flatMap((box) => ringOf(box, ROUTE_MARGIN))];
    const pick = (cands, leg) => cands.reduce((x, y) => (less(leg(y), leg(x)) ? y : x));
    for (const w of bends) {
      const p = pick(starts, (c) => cost([c, w]));
      const q = pick(stops, (c) => cost([w, c]));
      const c = cost([p, w, q]);
      if (less(c, bestCost)) { best = [p, w, q]; bestCost = c; }
    }
    return best;
  }

  /** The current event's units drawn bold: a card's or a stack's outline, a marker's ring. */
  function focusTable(focusIds, traces) {
    const geo = ctx.tableGeo;
    const rings = [];
    for (const t of geo.tiles) if (focusIds.has(t.u.id)) rings.push(t);
    for (const s of geo.stacks) if (s.units.some((u) => focusIds.has(u.id))) rings.push({ x0: s.x0 - 2, x1: s.x1 + 6, y0: s.y0 - 2, y1: s.y1 + 4 });
    if (rings.length) {
      const geoms = rings.map((r) => ({ ring: [[r.x0, r.y0], [r.x1, r.y0], [r.x1, r.y1], [r.x0, r.y1], [r.x0, r.y0]] }));
      traces.push(ctx.lineTrace('focus outline', geoms, '#111111', 'solid', 3, 'focus'));
    }
    const ms = geo.markers.filter((m) => focusIds.has(m.u.id));
    if (ms.length) {
      traces.push({ type: 'scatter', name: 'focus', x: ms.map((m) => m.x), y: ms.map((m) => m.y), mode: 'markers', showlegend: false,
        marker: { symbol: 'circle-open', size: 16, color: '#111111', line: { width: 2.5 } }, customdata: ms.map((m) => m.u.id), hoverinfo: 'skip' });
    }
  }

  /** [points, places in words] of a ring-seated board, its layout kept for drawing. */
  function tablePlacements(f) {
    ctx.tableGeo = tableLayout(f);
    return [ctx.tableGeo.pts, ctx.tableGeo.wh];
  }

  Object.assign(ctx, { isRing, tablePlacements, tableFrame, drawTable, focusTable, attackPath });
})();
