/* Wake scrubber: what the board shows over the units. The frame's overlays (line of sight,
 * range, path and any other kind, dashed, one colour per kind, with labels), and the current
 * event: an arrow for each unit that moved, the units it names drawn again on top and ringed,
 * and every attack line, attacker to each target, labelled with range and result.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { esc, fmt, rgba } = ctx;
  const ATTACK_COLOUR = '#C00000';
  const FOCUS_COLOUR = '#111111';
  const OVERLAY_COLOURS = { line_of_sight: ATTACK_COLOUR, range: '#6A3D9A', path: '#117733' };
  const OVERLAY_OTHER = ['#882255', '#44AA99', '#999933', '#332288'];

  const ALONG = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8];  // where on a line a label may sit
  /** How close (in board units) a line's label may come to a unit before it moves along. */
  function clearance(f) {
    const b = f.board;
    return b.kind === 'continuous' ? 0.035 * Math.max(b.width, b.height) : 0.4;
  }
  /** The point of the polyline ``ring`` where a label covers no unit of ``pts`` (issue 21
   *  item 10: Armada's range text sat on squadrons): the middle if it is clear, else the
   *  first clear point of ``ALONG``, else the one farthest from every unit. */
  function clearPoint(ring, pts, room) {
    const legs = [];
    let total = 0;
    for (let i = 1; i < ring.length; i += 1) {
      const d = Math.hypot(ring[i][0] - ring[i - 1][0], ring[i][1] - ring[i - 1][1]);
      legs.push(d);
      total += d;
    }
    const units = Object.values(pts);
    let best = null; let bestGap = -1;
    for (const t of ALONG) {
      let left = t * total; let i = 0;
      while (i < legs.length - 1 && left > legs[i]) { left -= legs[i]; i += 1; }
      const k = legs[i] ? left / legs[i] : 0;
      const at = [ring[i][0] + k * (ring[i + 1][0] - ring[i][0]), ring[i][1] + k * (ring[i + 1][1] - ring[i][1])];
      let gap = Infinity;
      for (const u of units) gap = Math.min(gap, Math.hypot(u[0] - at[0], u[1] - at[1]));
      if (gap >= room) return at;
      if (gap > bestGap) { bestGap = gap; best = at; }
    }
    return best;
  }

  function drawOverlays(f, traces, pts) {
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
        const t = ctx.fillTrace(label, areas, rgba(colour, 0.08), colour, label);
        t.line.dash = 'dash';
        t.showlegend = !lines.length;
        traces.push(t);
      }
      if (lines.length) {
        const t = ctx.lineTrace(label, lines, colour, 'dash', 2, label);
        t.showlegend = true;
        traces.push(t);
      }
      for (const o of of) {
        if (!o.label || !o.at) continue;
        const who = (o.units || []).map((u) => unitNames[u] || u).join(', ');
        const ls = [`<b>${esc(label)}</b>: ${esc(o.label)}`];
        if (who) ls.push(esc(who));
        for (const [k, v] of Object.entries(o.details || {})) if (v != null) ls.push(`${esc(k)}: ${esc(fmt(v))}`);
        // a line's label moves along it, off the units (an area's stays inside it)
        const at = !o.closed && o.ring && o.ring.length > 1 ? clearPoint(o.ring, pts, clearance(f)) : o.at;
        labelled.push([{ ...o, at: at || o.at }, ls.join('<br>')]);
      }
    }
    if (labelled.length) traces.push(ctx.labelTrace('overlay labels', labelled, '#333333', 10));
  }
  /** Event ``n`` on frame ``f``: its moves, its units, its attack lines (traces and
   *  annotations added to the board's). */
  function highlight(n, f, pts, layout, traces, places) {
    if (n < 1) return;
    const { colours, names } = ctx;
    const before = ctx.frames[n - 1];
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
        arrowcolor: colours[u.side] || FOCUS_COLOUR, standoff: ctx.markerSize(u) / 2 + 2, hovertext: `${esc(u.name)} moves`,
      });
    }
    const ev = ctx.P.events[n - 1];
    const focusIds = new Set(ev[2]);
    const focused = f.units.filter((u) => focusIds.has(u.id) && pts[u.id] && (ctx.showOut || u.status === 'active'));
    if (ctx.isRing(f)) ctx.focusTable(focusIds, traces); // cards and stacks outlined
    // the units the event names are drawn again last, so no other unit hides them
    else for (const sid of Object.keys(colours)) {
      const mine = focused.filter((u) => u.side === sid && !u.shapes);
      if (!mine.length) continue;
      const name = names[sid] || sid;
      const t = ctx.unitTrace(`${name} (current)`, mine, pts, name, colours[sid], false, places);
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
        // on a table the line runs from card edge to card edge, never over a card's text
        const path = ctx.isRing(f) ? ctx.attackPath(a, t) : [pts[a], pts[t]];
        for (const [i, [x, y]] of path.entries()) {
          xs.push(x); ys.push(y); hover.push(text); ids.push(i === path.length - 1 ? t : a);
        }
        xs.push(null); ys.push(null); hover.push(''); ids.push(null);
        if (label) {
          const others = Object.fromEntries(Object.entries(pts).filter(([id]) => id !== a && id !== t));
          const [x, y] = clearPoint(path, others, clearance(f));
          layout.annotations.push({ x, y,
            xref: 'x', yref: 'y', text: esc(label), showarrow: false, font: { size: 10, color: ATTACK_COLOUR },
            bgcolor: 'rgba(255,255,255,0.75)' });
        }
      }
      traces.push({ type: 'scatter', name: 'attack', legendgroup: 'attack', showlegend: true,
        x: xs, y: ys, mode: 'lines', line: { color: ATTACK_COLOUR, dash: 'dash', width: 2 },
        customdata: ids, hovertext: hover, hovertemplate: '%{hovertext}<extra>attack</extra>' });
    }
    if (ctx.isRing(f)) return;
    const outlined = focused.filter((u) => u.shapes);
    if (outlined.length) {
      const bases = outlined.flatMap((u) => u.shapes.filter((s) => s.style === 'base' && s.closed));
      const t = ctx.lineTrace('focus outline', bases.length ? bases : outlined.flatMap((u) => u.shapes), FOCUS_COLOUR, 'solid', 3, 'focus');
      traces.push(t);
    }
    const plain = focused.filter((u) => !u.shapes);
    if (plain.length) {
      traces.push({ type: 'scatter', name: 'focus', x: plain.map((u) => pts[u.id][0]), y: plain.map((u) => pts[u.id][1]),
        mode: 'markers', marker: { symbol: 'circle-open', size: plain.map((u) => ctx.markerSize(u) + 14), color: FOCUS_COLOUR, line: { width: 3 } },
        customdata: plain.map((u) => u.id), hoverinfo: 'skip', showlegend: false });
    }
  }

  Object.assign(ctx, { drawOverlays, highlight });
})();
