/* Wake scrubber: the selected unit (chosen in the "Details and reach of" list, or by a click
 * on it). Its reach drawn on the board as rings (range dashed, movement dotted: circles, a
 * base's outline grown, or a square of cells on a grid), and everything about it at this
 * position below the board, as plain text in players' words.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $, el, esc, fmt } = ctx;
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
    const selected = ctx.selected;
    const u = selected && f.units.find((x) => x.id === selected);
    if (!u || !pts[u.id] || u.status !== 'active' || !(u.rings || []).length) return;
    const down = f.board.kind !== 'continuous'; // y runs down the screen on grids
    for (const kind of ['range', 'move']) {
      const rings = u.rings.filter((r) => r.kind === kind);
      const drawnRings = rings.map((r) => [r, ringOutline(u, r, f.board)]).filter(([, g]) => g);
      if (!drawnRings.length) continue;
      const colour = RING_COLOURS[kind];
      const [x, y] = ctx.batched(drawnRings.map(([, g]) => ({ ring: g })));
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
    ctx.selected = id || null;
    $('unit-select').value = ctx.selected || '';
    ctx.drawn = -1;
    ctx.schedule();
  }
  /** Everything about the selected unit at this position, as plain text. */
  function showUnit(f, wh) {
    const selected = ctx.selected;
    const names = ctx.names;
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
  /** The "Details and reach of" list: every unit the game ever shows, once per game. */
  function buildUnitSelect() {
    const pick = $('unit-select');
    pick.textContent = '';
    pick.append(el('option', '', '— none —'));
    pick.firstChild.value = '';
    const seen = new Map();
    for (const f of [ctx.frames[0], ...ctx.P.deltas.filter((d) => d && d.u).map((d) => ({ units: Object.values(d.u) }))]) {
      for (const u of f.units) if (u.kind !== ctx.HIDDEN_KIND && !seen.has(u.id)) seen.set(u.id, u.name);
    }
    for (const [id, name] of [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const opt = el('option', '', name && name !== id ? `${id} · ${name}` : id);
      opt.value = id;
      pick.append(opt);
    }
    if (ctx.selected && !seen.has(ctx.selected)) ctx.selected = null;
    pick.value = ctx.selected || '';
  }

  $('unit-select').addEventListener('change', (e) => select(e.target.value));

  Object.assign(ctx, { drawRings, select, showUnit, buildUnitSelect });
})();
