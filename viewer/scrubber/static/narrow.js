/* Wake scrubber: a narrow window (a phone; scrubber.css lays the page out for it). The board
 * about as tall as it is wide, without its title (the position line says it), thin margins
 * that grow to fit the tick labels, the legend's title on its own line; a chart's title
 * smaller, under the modebar. On a touch screen a drag scrolls the page instead of zooming
 * (plotly.js #2844; the modebar still offers zoom and pan). Crossing the width redraws all.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;

  const NARROW = window.matchMedia('(max-width: 600px)');
  const TOUCH = window.matchMedia('(pointer: coarse)');
  /** Adjust a plotly ``layout`` about to be drawn in ``node`` for the window. */
  function fitNarrow(layout, node) {
    if (TOUCH.matches) layout.dragmode = false;
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

  Object.assign(ctx, { fitNarrow, narrow: () => NARROW.matches });
})();
