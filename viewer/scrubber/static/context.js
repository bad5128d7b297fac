/* Wake scrubber: the shared context. Loaded first; every other file of the scrubber reads and
 * extends the one object made here, window.wakeCtx (no build step, no modules: plain scripts
 * loaded in a fixed order by index.html, each file one closure).
 *
 * The scrubber as a whole (a Streamlit component, protocol v1, plain postMessage): the server
 * sends the game ONCE per game and view (args.payload: base64 of zlib'd JSON, made by
 * viewer/scrubber/payload.py): the first frame, per-event deltas, every log line, the chart
 * series. The deltas are folded into one frame per event (start.js), and every step (key,
 * button, slider, strip or chart click, move list click) only redraws the board and moves the
 * cursors. The settled position goes back to the server (protocol.js: setComponentValue,
 * debounced) so the Explain panel and the URL (?event=) catch up; the server's URL change is
 * what Back/Forward walk.
 *
 * The files, in load order:
 *   context.js        this object: the payload, the state, DOM and formatting helpers
 *   protocol.js       the Streamlit component protocol: render messages in, the position out
 *   control.js        scrubbing: the position, the buttons and slider, one redraw per frame
 *   keys.js           keyboard scrubbing (in the frame and on the page) and the URL's Back/Forward
 *   narrow.js         layouts for a narrow window or a touch screen
 *   board-traces.js   the board's plotly traces: outlines, lines, labels, unit markers, hovers
 *   board-place.js    where each unit sits on a continuous, grid or zone board
 *   board-labels.js   unit labels placed so that they never collide
 *   board-table.js    a zone board seated round a table: seat panels, card tiles, card backs
 *   board-overlays.js overlays, and the current event: moves, attack lines, focus
 *   board-reach.js    the selected unit: its reach as rings, its details below the board
 *   board.js          the board: its frame, features, shapes and units, drawn per position
 *   charts.js         the event strip and the charts, their cursors and click-to-jump
 *   winprob.js        the win-probability graph
 *   moves.js          the move list: grouped, filtered, windowed
 *   start.js          a game arrives: frames folded, the board first, then the rest built once;
 *                     the handshake
 *
 * A file keeps its own working variables in its closure; what another file reads or sets is a
 * field of the context (below), and what another file calls is registered on it by the file
 * that defines it (Object.assign(ctx, {...}) at the file's end).
 *
 * Safety: record text reaches the DOM only through textContent; plotly labels and hovers get
 * it HTML-escaped (plotly renders a few tags). Frames are already redacted for the view.
 */
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = String(text);
    return node;
  };
  const esc = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;')
    .replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
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

  window.wakeCtx = {
    // --- constants shared by several files ---
    PALETTE: ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'],
    HIDDEN_KIND: 'hidden', // a unit another side may not see (domain.read_model.HIDDEN_KIND)

    // --- helpers ---
    $, // an element of index.html by id
    el, // a new element, its text set with textContent
    esc, // text HTML-escaped for plotly labels and hovers
    fmt, // a detail's value as text
    rgba, // '#rrggbb' and an alpha as a CSS colour

    // --- the game (start.js) ---
    P: null, // the payload, inflated
    frames: [], // one frame per event: the payload's deltas folded
    length: 0, // events in the game (the last position)
    turnStarts: [], // the event each turn starts at
    swings: [], // [event, kind, text] of each swing
    pendingRest: false, // the move list, strip and charts wait for the first board (start.js)

    // --- the position ---
    pos: 0, // the event shown
    token: null, // the server's last forced position (protocol.js)
    reported: null, // the last position told to the server (protocol.js, control.js)
    drawn: -1, // the event the board shows; -1 draws it again at the next frame
    instance: Math.random().toString(36).slice(2), // this frame, among scrubbers on the page

    // --- the board ---
    colours: {}, // side id -> colour, as last drawn (board.js)
    names: {}, // side id -> name, as last drawn (board.js)
    showOut: true, // units out of play drawn as grey crosses, or left off (the toggle)
    selected: null, // the unit shown in detail, its reach drawn (board-reach.js)
    tableGeo: null, // a ring-seated zone board's layout, as last placed (board-table.js)

    // --- the charts (charts.js) and the win probability (winprob.js) ---
    chartsDrawn: {}, // chart key -> true once drawn for this game and width
    activeTab: 'dmg_side',
    wpNotes: {}, // event -> the analysis's note
    wpOnly: false, // the move list keeps only events with an analysis note

    // functions registered by the other files follow
  };
})();
