/* Wake scrubber: the move list. Every event, grouped by turn and phase, with its side, kind,
 * log line, annotations (issue 14) and the analysis's notes; filtered by side, unit and kind,
 * by the page's annotation filter and by "Analysis notes only". The current event's row is
 * marked and scrolled into view; a click on a row goes there. A long game's list is windowed:
 * only the rows around the current event (or around where the user scrolled) are in the page,
 * with spacers standing for the rest, so a step never lays out 10,000 rows (measured: the
 * whole list in the page made a 10,000-event game's step 3-4x slower). Short games are listed
 * whole.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $, el } = ctx;
  const FULL_LIST_MAX = 1200; // items listed whole up to this many
  const WINDOW_HALF = 250; // items either side of the centre when windowed
  const WINDOW_MARGIN = 60; // re-centre when the current row comes this close to an edge
  const ROW_EST_PX = 19; // a spacer's height per item not in the page (rows may wrap)
  const CONTEXT_PX = 38; // the current row is placed this far below the list's top (two rows)
  const filters = { side: new Set(), unit: new Set(), kind: new Set() };
  let groupOf = []; // seq -> index into groupLabels (seq 0, the start, has none)
  let groupLabels = [];
  let items = []; // what the filters keep: ['g', group] headings and ['r', seq] rows
  let itemIndex = new Map(); // seq -> index into items
  let win = [0, 0];
  let built = false;
  let current = null; // the marked row

  /** Once per game: the groups and the filters' choices, then the list. */
  function buildMoves() {
    const P = ctx.P;
    current = null;
    groupOf = [-1];
    groupLabels = [];
    let key = null;
    P.events.forEach((ev, i) => {
      // grouped as the log counts them: the turn and phase after the event (so the event
      // that starts a phase heads its group)
      const f = ctx.frames[i + 1];
      const k = `${f.turn}\u0000${f.phase}`;
      if (k !== key) {
        key = k;
        groupLabels.push(`Turn ${f.turn} · ${f.phase}`);
      }
      groupOf.push(groupLabels.length - 1);
    });
    const choices = {
      side: [...new Set(P.events.map((e) => e[1]).filter(Boolean))].sort(),
      unit: [...new Set(P.events.flatMap((e) => e[2]))].sort(),
      kind: [...P.kinds].sort(),
    };
    for (const box of document.querySelectorAll('.filter')) {
      const what = box.dataset.filter;
      const inner = box.querySelector('div');
      inner.textContent = '';
      filters[what].clear();
      box.querySelector('summary').textContent = `${what[0].toUpperCase()}${what.slice(1)}: all`;
      for (const value of choices[what]) {
        const label = el('label');
        const input = el('input');
        input.type = 'checkbox';
        input.addEventListener('change', () => {
          if (input.checked) filters[what].add(value); else filters[what].delete(value);
          const n = filters[what].size;
          box.querySelector('summary').textContent = `${what[0].toUpperCase()}${what.slice(1)}: ${n ? `${n} chosen` : 'all'}`;
          applyFilters();
        });
        label.append(input, ` ${what === 'side' ? (P.sides[value] || value) : value}`);
        inner.append(label);
      }
    }
    built = true;
    applyFilters();
  }
  function moveRow(seq) {
    const P = ctx.P;
    if (seq === 0) {
      const start = el('div', 'move', '');
      start.dataset.seq = '0';
      start.append(el('span', 'seq', '0'), el('span', 'side', ''), el('span', 'kind', ''), el('span', 'text', 'Start of the game'));
      return start;
    }
    const ev = P.events[seq - 1];
    const row = el('div', ev[5] ? 'move auto' : 'move');
    row.setAttribute('role', 'listitem');
    row.dataset.seq = String(seq);
    row.append(
      el('span', 'seq', seq),
      el('span', 'side', ev[1] ? (P.sides[ev[1]] || ev[1]) : ''),
      el('span', 'kind', P.kinds[ev[0]]),
      el('span', 'text', ev[3]),
    );
    const text = notes.text[String(seq)];
    if (typeof text === 'string' && text) {
      const mark = el('span', 'annotation', `✎ ${text}`);
      mark.title = text;
      row.append(mark);
    }
    const auto = ctx.wpNotes[String(seq)]; // issue 24 item 2: the analysis's notes, apart
    if (typeof auto === 'string' && auto) {
      const mark = el('span', 'analysis-note', `Analysis (bot rollouts): ${auto}`);
      mark.title = auto;
      row.append(mark);
    }
    return row;
  }
  // annotations (issue 14): {text: {seq: "#1 disputed (Ann): ..."}, only: true when the page's
  // annotation filter is set (then only the events it keeps are listed); plain text only
  let notes = { text: {}, only: false };
  let notesKey = '';
  function showNotes(given) {
    const next = given && typeof given === 'object' ? given : { text: {}, only: false };
    const key = JSON.stringify(next);
    if (key === notesKey) return;
    notesKey = key;
    notes = { text: next.text || {}, only: Boolean(next.only) };
    if (built) applyFilters(); // else buildMoves applies them
  }
  /** Another game arrived: its move list is built later (start.js, finish). */
  function forgetMoves() {
    built = false;
  }
  function applyFilters() {
    const P = ctx.P;
    const wpOnly = ctx.wpOnly;
    const wpNotes = ctx.wpNotes;
    const any = filters.side.size || filters.unit.size || filters.kind.size || notes.only || wpOnly;
    items = any ? [] : [['r', 0]];
    itemIndex = new Map(any ? [] : [[0, 0]]);
    let count = 0;
    let group = -1;
    P.events.forEach((ev, i) => {
      const ok = !any || ((!filters.side.size || filters.side.has(ev[1]))
        && (!filters.unit.size || ev[2].some((u) => filters.unit.has(u)))
        && (!filters.kind.size || filters.kind.has(P.kinds[ev[0]]))
        && (!notes.only || Object.prototype.hasOwnProperty.call(notes.text, String(i + 1)))
        && (!wpOnly || Object.prototype.hasOwnProperty.call(wpNotes, String(i + 1))));
      if (!ok) return;
      count += 1;
      if (groupOf[i + 1] !== group) {
        group = groupOf[i + 1];
        items.push(['g', group]);
      }
      itemIndex.set(i + 1, items.length);
      items.push(['r', i + 1]);
    });
    $('move-count').textContent = `${count} of ${ctx.length} events (click one to go there)`;
    current = null;
    renderWindow(itemIndex.has(ctx.pos) ? itemIndex.get(ctx.pos) : 0);
    markMove(ctx.pos, true);
  }
  let rowEls = new Map(); // seq -> row element, for the rows in the page
  function renderWindow(centre) {
    const list = $('moves');
    const whole = items.length <= FULL_LIST_MAX;
    const a = whole ? 0 : Math.max(0, Math.min(centre - WINDOW_HALF, items.length - 2 * WINDOW_HALF));
    const b = whole ? items.length : Math.min(items.length, a + 2 * WINDOW_HALF);
    win = [a, b];
    rowEls = new Map();
    const frag = document.createDocumentFragment();
    const spacer = (n, which) => {
      const gap = el('div', `spacer ${which}`);
      gap.style.height = `${n * ROW_EST_PX}px`;
      gap.setAttribute('aria-hidden', 'true');
      return gap;
    };
    if (a > 0) frag.append(spacer(a, 'above'));
    for (let k = a; k < b; k += 1) {
      const [kind, value] = items[k];
      if (kind === 'g') {
        const head = el('div', 'group', groupLabels[value]);
        head.setAttribute('role', 'heading');
        frag.append(head);
      } else {
        const row = moveRow(value);
        rowEls.set(value, row);
        frag.append(row);
      }
    }
    if (b < items.length) frag.append(spacer(items.length - b, 'below'));
    list.textContent = '';
    list.append(frag);
    if (current) current = rowEls.get(Number(current.dataset.seq)) || null;
  }
  // a user scrolling a windowed list into a spacer: bring the rows there into the page
  let scrollFrame = 0;
  function onMovesScroll() {
    if (scrollFrame || items.length <= FULL_LIST_MAX) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = 0;
      const list = $('moves');
      const above = list.querySelector('.spacer.above');
      const below = list.querySelector('.spacer.below');
      const top = list.scrollTop;
      const bottom = top + list.clientHeight;
      let at = null;
      if (above && top < above.offsetHeight) at = Math.floor(top / ROW_EST_PX);
      else if (below && bottom > below.offsetTop) at = win[1] + Math.floor((top - below.offsetTop) / ROW_EST_PX);
      if (at === null) return;
      at = Math.max(0, Math.min(items.length - 1, at));
      renderWindow(at);
      const seq = items.slice(at).find((it) => it[0] === 'r');
      const row = seq && rowEls.get(seq[1]);
      if (row) list.scrollTop = row.offsetTop;
      if (rowEls.has(ctx.pos)) markMove(ctx.pos, true);
    });
  }
  /** Rows above the current row may still change height as the page settles (the first
   * render's late layout): for about a second and a half, place it again near the top if it
   * drifted, unless a person scrolled the list. */
  let userScrolled = 0;  // when a person last scrolled the list (their scroll is theirs)
  for (const type of ['wheel', 'touchmove', 'pointerdown', 'keydown']) {
    $('moves').addEventListener(type, () => { userScrolled = performance.now(); }, { passive: true });
  }
  function keepPlaced(list) {
    const seq = ctx.pos;
    const since = performance.now();
    let frames = 90;
    let top = null;
    let scroll = list.scrollTop;
    const check = () => {
      const row = rowEls.get(seq);  // the list may have been built again meanwhile
      if (ctx.pos !== seq || !row || userScrolled > since || frames-- <= 0) return;
      const moved = top !== null && row.offsetTop !== top;
      // the row still where it was but the list scrolled: someone scrolled it; leave it be
      if (!moved && Math.abs(list.scrollTop - scroll) > 2) return;
      top = row.offsetTop;
      if (top < list.scrollTop || top + row.offsetHeight > list.scrollTop + list.clientHeight * 0.4) {
        list.scrollTop = Math.max(0, top - CONTEXT_PX);
      }
      scroll = list.scrollTop;
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }
  /** Mark event ``n``'s row (``force``: even if it is marked) and scroll it into view. */
  function markMove(n, force) {
    if (!built) return;
    const index = itemIndex.get(n);
    if (index !== undefined && items.length > FULL_LIST_MAX
        && (index < win[0] || index >= win[1]
          || (win[0] > 0 && index < win[0] + WINDOW_MARGIN)
          || (win[1] < items.length && index >= win[1] - WINDOW_MARGIN))) {
      renderWindow(index);
    }
    const row = rowEls.get(n) || null;
    if (row === current && !force) return;
    if (current) { current.classList.remove('current'); current.removeAttribute('aria-current'); }
    current = row;
    if (!row) return;
    row.classList.add('current');
    row.setAttribute('aria-current', 'true');
    const list = $('moves');
    if (list.clientHeight === 0) return;
    const top = row.offsetTop;
    const bottom = top + row.offsetHeight;
    // the current row kept near the top of the list, two rows of context above it: the top
    // of the list is what the first screen shows under the board (issue 21 item 9)
    if (top < list.scrollTop + 24 || bottom > list.scrollTop + list.clientHeight * 0.4) {
      list.scrollTop = Math.max(0, top - CONTEXT_PX);
    }
    if (force) keepPlaced(list);
  }

  $('moves').addEventListener('scroll', onMovesScroll, { passive: true });
  // rows re-wrap when the list's width settles (the frame is sized after the first draw):
  // the current row is placed again, or it drifts below the first screen
  let listWidth = 0;
  new ResizeObserver(() => {
    const width = $('moves').clientWidth;
    if (width === listWidth) return;
    listWidth = width;
    if (built && rowEls.has(ctx.pos)) markMove(ctx.pos, true);
  }).observe($('moves'));

  $('moves').addEventListener('click', (e) => {
    const row = e.target.closest('.move');
    if (row) ctx.go(Number(row.dataset.seq));
  });
  $('wp-only').querySelector('input').addEventListener('change', (e) => {
    ctx.wpOnly = e.target.checked;
    applyFilters();
  });

  Object.assign(ctx, { buildMoves, forgetMoves, showNotes, markMove });
})();
