/* Wake scrubber: the win-probability graph (issue 24 item 2). Each side's win probability if
 * both sides play as Wake's bots from here (payload.winprob, made by viewer/winprob.py, present
 * only for the umpire or a finished game), its 95 % band, the turning points (their words in
 * the hover), a cursor at the current event and a click that jumps, like the charts. Also the
 * analysis's notes (ctx.wpNotes), which the move list shows and can keep alone.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $, esc, rgba, PALETTE } = ctx;
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
  /** Once per game: the analysis's notes, and the move list's "Analysis notes only" filter. */
  function buildWinprob() {
    const W = ctx.P.winprob;
    ctx.wpNotes = (W && W.notes && typeof W.notes === 'object') ? W.notes : {};
    ctx.wpOnly = false;
    const filter = $('wp-only');
    filter.hidden = !Object.keys(ctx.wpNotes).length;
    filter.querySelector('input').checked = false;
  }
  function drawWinprob() {
    const P = ctx.P;
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
    const marks = ctx.turnMarks();
    const layout = {
      title: { text: esc(W.title), x: 0.01, xanchor: 'left', font: { size: 14 } }, height: 300,
      margin: { l: 50, r: 10, t: 40, b: 50 }, plot_bgcolor: 'white', hovermode: 'closest',
      hoverlabel: { align: 'left' },
      legend: { orientation: 'h', yanchor: 'top', y: -0.3, x: 0 },
      xaxis: { title: { text: 'event' }, range: [0, Math.max(ctx.length, 1)], showgrid: true, gridcolor: '#EEEEEE', zeroline: false },
      yaxis: { title: { text: 'wins' }, range: [0, 1], tickformat: '.0%', showgrid: true, gridcolor: '#EEEEEE', zeroline: false },
      shapes: marks.map(([, s]) => ({ type: 'line', x0: s, x1: s, xref: 'x', y0: 0, y1: 1, yref: 'paper', layer: 'below', line: { color: '#BBBBBB', width: 1, dash: 'dot' } })),
      annotations: marks.map(([t, s]) => ({ x: s, y: 1, xref: 'x', yref: 'paper', text: `T${t}`, showarrow: false, xanchor: 'left', yanchor: 'top', font: { size: 9, color: '#888888' } })),
    };
    ctx.fitNarrow(layout, node);
    node.dataset.turning = turning.map((t) => t.event).join(' ');
    $('wp-about').textContent = `${W.caveat} ${W.about}.`;
    Plotly.react(node, traces, layout, { displaylogo: false, responsive: true });
    ctx.addCursor(node);
    if (!node.wakeHover) { // the cursor's label would cover a hover's words
      node.wakeHover = true;
      node.on('plotly_hover', () => node.classList.add('hovering'));
      node.on('plotly_unhover', () => node.classList.remove('hovering'));
    }
  }

  Object.assign(ctx, { buildWinprob, drawWinprob });
})();
