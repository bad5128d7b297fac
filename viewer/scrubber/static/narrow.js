/* Wake scrubber: a narrow window (a phone; scrubber.css lays the page out for it). The board
 * about as tall as it is wide, without its title (the position line says it), thin margins
 * that grow to fit the tick labels, the legend's title on its own line; a chart's title
 * smaller, under the modebar. On a touch screen a drag scrolls the page instead of zooming
 * (plotly.js #2844; the modebar still offers zoom and pan). Crossing the width redraws all.
 * With a mouse, the board is no taller than leaves the first rows of the move list on the
 * first screen of the page (issue 21 item 9); on a narrow page, "Explain ↓" scrolls the page
 * to the explain panel (one tap from the board).
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;

  const NARROW = window.matchMedia('(max-width: 600px)');
  const TOUCH = window.matchMedia('(pointer: coarse)');
  /** Adjust a plotly ``layout`` about to be drawn in ``node`` for the window. */
  const MOVES_PEEK = 180;  // the move list's heading, filters and about four rows
  const MIN_BOARD = 340;  // below this a board is too small to read: the moves go lower

  /** The page's height left for the board from its top on the first screen, the first rows of
   * the move list kept in view; null when the page around the frame cannot be read. */
  function firstScreenRoom(node) {
    try {
      const frame = window.frameElement;
      if (!frame) return null;
      const top = frame.getBoundingClientRect().top + window.parent.scrollY
        + node.getBoundingClientRect().top + window.scrollY;
      return window.parent.innerHeight - top - MOVES_PEEK;
    } catch (err) {
      return null;  // another origin: keep the board's own height
    }
  }

  function fitNarrow(layout, node) {
    if (TOUCH.matches) layout.dragmode = false;
    if (node.id === 'board' && !TOUCH.matches) {
      const room = firstScreenRoom(node);
      if (room !== null) layout.height = Math.max(MIN_BOARD, Math.min(layout.height, room));
    }
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
    if (!ctx.P) return;
    ctx.chartsDrawn = {};
    ctx.showTab(ctx.activeTab);
    ctx.drawWinprob();
    ctx.drawn = -1;
    ctx.schedule();
  });

  // "Explain ↓": shown only when the page stacks the explain panel below this frame (a phone)
  const toExplain = document.getElementById('to-explain');
  function explainHeading() {
    try {
      return window.parent.document.getElementById('explain');
    } catch (err) {
      return null;  // another origin: nothing to scroll to
    }
  }
  function placeExplainLink() {
    const heading = explainHeading();
    const frame = window.frameElement;
    const below = heading && frame
      && heading.getBoundingClientRect().top > frame.getBoundingClientRect().bottom - 1;
    toExplain.hidden = !below;
  }
  toExplain.addEventListener('click', () => {
    const heading = explainHeading();
    if (heading) heading.scrollIntoView({ block: 'start' });
  });

  Object.assign(ctx, { fitNarrow, placeExplainLink, narrow: () => NARROW.matches });
})();
