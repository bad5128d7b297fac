/* Wake scrubber: a game arrives (or another view of it). The payload's deltas are folded once
 * into one frame per event (shared units, so a step is a lookup), and everything drawn once per
 * game is built: the pickers, and once the first board is drawn, the move list, the strip and
 * the charts. Loaded last: it tells Streamlit the component is ready, once every file has
 * registered on the context.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $ } = ctx;

  /** One frame per event from the payload's first frame and per-event deltas. */
  function buildFrames() {
    const P = ctx.P;
    const f0 = P.frame0;
    let cur = {
      units: P.units, board: P.board, turn: f0.turn, phase: f0.phase, active: f0.active,
      sides: f0.sides, result: f0.result, overlays: f0.overlays,
    };
    const frames = [cur];
    for (const d of P.deltas) {
      if (d === 0) { frames.push(cur); continue; }
      const next = Object.assign({}, cur);
      if (d.u || d.order) {
        const byId = new Map(cur.units.map((u) => [u.id, u]));
        if (d.u) for (const id of Object.keys(d.u)) byId.set(id, d.u[id]);
        const order = d.order || cur.units.map((u) => u.id);
        next.units = order.map((id) => byId.get(id)).filter(Boolean);
      }
      for (const k of ['board', 'turn', 'phase', 'active', 'sides', 'result', 'overlays']) {
        if (k in d) next[k] = d[k];
      }
      frames.push(next);
      cur = next;
    }
    ctx.frames = frames;
  }

  /** A game (or another view of it) arrived: everything drawn once per game is built here. */
  function start(data) {
    const P = data;
    ctx.P = P;
    ctx.length = P.length;
    P.sideOrder = P.frame0.sides.map((s) => s.id);
    ctx.turnStarts = P.turns.map((t) => t[1]);
    ctx.swings = P.swings;
    buildFrames();
    $('loading').hidden = true;
    $('controls').hidden = false;
    $('app').setAttribute('aria-busy', 'false');
    $('slider').max = String(ctx.length);
    ctx.chartsDrawn = {};
    ctx.buildUnitPick();
    ctx.buildUnitSelect();
    ctx.buildWinprob();
    ctx.forgetMoves(); // the last game's move list is not this one's
    ctx.drawn = -1;
    ctx.pendingRest = true; // built by finish(), once the first board is drawn
    ctx.fitHeight();
  }

  /** What a game shows besides its board (the move list, the strip, the charts: most of a
   * game's start), built in the task after the first board is drawn, so the board comes first
   * (issue 21 item 12). */
  function finish() {
    if (!ctx.pendingRest) return;
    ctx.pendingRest = false;
    ctx.buildMoves(); // with the annotations the page sent meanwhile
    ctx.drawStrip();
    ctx.drawWinprob();
    ctx.showTab(ctx.activeTab);
    ctx.moveCursors(ctx.pos);
    ctx.markMove(ctx.pos, true);
    ctx.fitHeight();
  }

  ctx.start = start;
  ctx.finish = finish;
  ctx.send('streamlit:componentReady', { apiVersion: 1 });
})();
