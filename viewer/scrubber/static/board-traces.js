/* Wake scrubber: the board's plotly traces, shared by its layers. Filled outlines, dashed or
 * dotted lines and text labels from geometry rings (batched into one trace each, rings split
 * by nulls), and the unit markers: sized by strength, filled less as damage grows, a cross for
 * a unit out of play, with a hover holding the essentials (a click shows everything).
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { esc, rgba } = ctx;
  const MIN_FILL_ALPHA = 0.15;
  const MAX_MARKER_SIZE = 28;
  const SHAPED_MARKER_SIZE = 9;

  function damageRatio(u) {
    if (u.strength <= 0) return u.damage <= 0 ? 0 : 1;
    return Math.min(Math.max(u.damage / u.strength, 0), 1);
  }
  const markerSize = (u) => (u.shapes ? SHAPED_MARKER_SIZE : Math.min(10 + 3 * Math.max(u.strength, 0), MAX_MARKER_SIZE));
  // the hover holds the essentials; a click on the unit shows everything below the board
  function hover(u, sideName) {
    const status = u.status === 'active' ? '' : ` · ${esc(u.status)}`;
    const lines = [`<b>${esc(u.name)}</b>`, `${esc(sideName)} · ${esc(u.kind)}${status}`];
    if (u.strength > 0 || u.damage > 0) lines.push(`damage ${u.damage}/${u.strength}`);
    if (u.kind !== ctx.HIDDEN_KIND) lines.push('<i>click for details and reach</i>');
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
  /** One side's unit markers (``out``: those out of play), labelled where ``places`` found room. */
  function unitTrace(name, units, pts, sideName, colour, out, places) {
    const marker = out
      ? { symbol: 'x', color: colour, opacity: 0.45, size: 12 }
      : { symbol: 'circle', size: units.map(markerSize),
        color: units.map((u) => rgba(colour, 1 - (1 - MIN_FILL_ALPHA) * damageRatio(u))),
        line: { color: colour, width: 2 } };
    return {
      type: 'scatter', name: esc(name), legendgroup: sideName, x: units.map((u) => pts[u.id][0]),
      y: units.map((u) => pts[u.id][1]), mode: 'markers+text',
      text: units.map((u) => (u.private || (u.shapes && !out) || !places.get(u.id) ? '' : esc(ctx.unitLabel(u)))),
      textposition: units.map((u) => (places.get(u.id) || { place: 'top center' }).place),
      textfont: { size: 10, color: out ? '#888888' : '#222222' }, meta: 'unit',
      customdata: units.map((u) => u.id), hovertext: units.map((u) => hover(u, sideName)),
      hovertemplate: '%{hovertext}<extra></extra>', marker,
    };
  }

  Object.assign(ctx, { markerSize, batched, fillTrace, lineTrace, labelTrace, unitTrace });
})();
