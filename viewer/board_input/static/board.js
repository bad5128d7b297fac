/* Wake board input: a Streamlit component (protocol v1, plain postMessage, no build step).
 *
 * The page sends a plotly figure (the board as a side may see it, with what the order being
 * entered would do), which units may be picked, and whether a free click means a point on a
 * continuous table or a box of a grid. A click goes back as {kind: "unit", id} or
 * {kind: "point", x, y} or {kind: "cell", c, r}, with a counter so that the same click twice
 * still counts. Record text never goes into the page as HTML: the hint is set as text and the
 * figure's labels were escaped on the server.
 */
(function () {
  'use strict';
  const board = document.getElementById('board');
  const hint = document.getElementById('hint');
  let pickable = new Set();
  let free = 'none';
  let counter = 0;
  // a click's id: this frame's own (the page may draw the board in a new frame) and a count
  const instance = Math.random().toString(36).slice(2);
  let figureKey = null;

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
  const choose = (value) => {
    counter += 1;
    send('streamlit:setComponentValue', {
      value: Object.assign({ n: `${instance}:${counter}`, figure: figureKey }, value),
      dataType: 'json',
    });
  };

  const PICK_RADIUS_PX = 16; // a click this close to a unit's marker picks the unit

  function nearestUnit(layout, px, py) {
    const xa = layout.xaxis;
    const ya = layout.yaxis;
    let best = null;
    let bestDistance = PICK_RADIUS_PX;
    for (const trace of board.data || []) {
      const ids = trace.customdata || [];
      if (!trace.mode || !String(trace.mode).includes('markers')) continue;
      for (let i = 0; i < ids.length; i += 1) {
        const id = ids[i];
        if (typeof id !== 'string' || !pickable.has(id)) continue;
        const dx = xa.c2p(trace.x[i]) - px;
        const dy = ya.c2p(trace.y[i]) - py;
        const distance = Math.hypot(dx, dy);
        if (distance <= bestDistance) {
          bestDistance = distance;
          best = id;
        }
      }
    }
    return best;
  }

  function onClick(event) {
    const layout = board._fullLayout;
    if (!layout || !layout.xaxis || !layout.yaxis) return;
    const rect = board.getBoundingClientRect();
    const xa = layout.xaxis;
    const ya = layout.yaxis;
    const px = event.clientX - rect.left - xa._offset;
    const py = event.clientY - rect.top - ya._offset;
    if (px < 0 || py < 0 || px > xa._length || py > ya._length) return; // outside the plot
    const unit = nearestUnit(layout, px, py);
    if (unit !== null) {
      choose({ kind: 'unit', id: unit });
      return;
    }
    if (free === 'none') return;
    const x = xa.p2c(px);
    const y = ya.p2c(py);
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    if (free === 'cell') choose({ kind: 'cell', c: Math.floor(x), r: Math.floor(y) });
    else choose({ kind: 'point', x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 });
  }

  let bound = false;
  function render(args) {
    const figure = JSON.parse(args.figure || '{}');
    pickable = new Set(args.pickable || []);
    free = args.free || 'none';
    figureKey = args.figure_key || null;
    hint.textContent = args.hint || '';
    const layout = Object.assign({}, figure.layout || {}, { dragmode: false });
    Plotly.react(board, figure.data || [], layout, {
      displayModeBar: false, responsive: true, scrollZoom: false, doubleClick: false,
    }).then(() => {
      if (!bound) {
        bound = true;
        board.addEventListener('click', onClick);
      }
      fitHeight();
    });
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const msg = event.data;
    if (msg && msg.type === 'streamlit:render') render(msg.args || {});
  });
  window.addEventListener('resize', fitHeight);
  send('streamlit:componentReady', { apiVersion: 1 });
})();
