/* Wake scrubber: scrubbing. Where a step goes (an event, a turn, a swing, the start or end),
 * the buttons and the slider, the position line under them, and the redraw: a step shows its
 * position line at once and draws the board, the cursors and the move list's row at the next
 * animation frame (so a held key never queues work). ctx.go is a move by the user (reported
 * to the server once the user stops), ctx.jump a move by the server (not reported back).
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $, el } = ctx;

  // --- navigation --------------------------------------------------------------------------------
  const clamp = (n) => Math.max(0, Math.min(ctx.length, Math.round(Number(n) || 0)));
  function nextTurn(n) {
    const s = ctx.turnStarts.find((t) => t > n);
    return s === undefined ? ctx.length : s;
  }
  function prevTurn(n) {
    let best = 0;
    for (const t of ctx.turnStarts) { if (t < n) best = t; else break; }
    return best;
  }
  const nextSwing = (n) => ctx.swings.find((s) => s[0] > n) || null;
  function prevSwing(n) {
    let best = null;
    for (const s of ctx.swings) { if (s[0] < n) best = s; else break; }
    return best;
  }
  function target(action) {
    const pos = ctx.pos;
    switch (action) {
      case 'start': return 0;
      case 'end': return ctx.length;
      case 'prev': return pos - 1;
      case 'next': return pos + 1;
      case 'prev-turn': return prevTurn(pos);
      case 'next-turn': return nextTurn(pos);
      case 'prev-swing': { const s = prevSwing(pos); return s ? s[0] : pos; }
      case 'next-swing': { const s = nextSwing(pos); return s ? s[0] : pos; }
      default: return pos;
    }
  }

  /** The user moved: show it now, tell the server once the user stops. */
  function go(n) {
    if (!ctx.P) return;
    const to = clamp(n);
    if (to === ctx.pos) return;
    ctx.pos = to;
    schedule();
    ctx.report();
  }
  /** The server moved (first render, Back/Forward): show it, do not report it back. */
  function jump(n) {
    ctx.pos = clamp(n);
    ctx.reported = ctx.pos;
    schedule();
  }

  // --- one redraw per animation frame --------------------------------------------------------------
  let scheduled = 0;
  let stepStart = 0;
  function schedule() {
    showPosition(); // the text first: cheap, and never behind the key
    if (scheduled) return;
    stepStart = performance.now();
    scheduled = requestAnimationFrame(render);
  }
  function render() {
    scheduled = 0;
    const n = ctx.pos;
    if (n !== ctx.drawn) {
      ctx.drawBoard(n);
      ctx.drawn = n;
    }
    ctx.moveCursors(n);
    ctx.markMove(n);
    $('slider').value = String(n);
    updateButtons(n);
    const board = $('board');
    board.dataset.event = String(n);
    board.dataset.stepMs = (performance.now() - stepStart).toFixed(1); // for the benchmark
    if (ctx.pendingRest) setTimeout(ctx.finish, 0); // after this frame is painted
  }

  // --- the position line and the controls ----------------------------------------------------
  function showPosition() {
    const pos = ctx.pos;
    const line = $('position');
    line.textContent = '';
    const head = el('b', '', `Event ${pos} / ${ctx.length}`);
    line.append(head);
    if (pos === 0) {
      line.append(' · Start');
    } else {
      const f = ctx.frames[pos];
      const ev = ctx.P.events[pos - 1];
      line.append(` · Turn ${f.turn} · ${f.phase} · ${ev[3]}`);
    }
    line.title = line.textContent; // the whole line, where two lines cannot hold it
  }
  function updateButtons(n) {
    const next = nextSwing(n);
    const prev = prevSwing(n);
    document.querySelector('[data-go="next-swing"]').disabled = !next;
    document.querySelector('[data-go="prev-swing"]').disabled = !prev;
    const note = $('swing-note');
    note.textContent = next ? `Next swing: event ${next[0]} (${next[1]}) — ${next[2]}` : '';
    note.title = note.textContent; // one line on the page: the rest when pointed at
  }

  const slider = $('slider');
  slider.addEventListener('input', () => go(Number(slider.value)));
  for (const b of document.querySelectorAll('[data-go]')) b.addEventListener('click', () => go(target(b.dataset.go)));

  Object.assign(ctx, { target, go, jump, schedule });
})();
