/* Wake scrubber: where each unit sits on the board. A continuous board: at its position. A grid
 * or a zone board: units sharing a cell (or a zone and seat) spread around its centre, in a
 * ring up to six, in a square beyond. Also each unit's place in words (for its details).
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { fmt } = ctx;
  const SLOT_RADIUS = 0.28;
  const SLOT_SPAN = 0.38;

  function slots(c, n) {
    const [cx, cy] = c;
    if (n <= 1) return [c];
    const out = [];
    if (n <= 6) {
      for (let i = 0; i < n; i += 1) {
        const a = Math.PI / 2 - (2 * Math.PI * i) / n;
        out.push([cx + SLOT_RADIUS * Math.cos(a), cy + SLOT_RADIUS * Math.sin(a)]);
      }
      return out;
    }
    const k = Math.ceil(Math.sqrt(n));
    const step = (2 * SLOT_SPAN) / (k - 1);
    for (let i = 0; i < n; i += 1) out.push([cx - SLOT_SPAN + (i % k) * step, cy + SLOT_SPAN - Math.floor(i / k) * step]);
    return out;
  }
  function spread(groups) {
    const placed = {};
    for (const { centre, ids } of groups.values()) {
      const s = slots(centre, ids.length);
      ids.forEach((id, i) => { placed[id] = s[i]; });
    }
    return placed;
  }
  const seatOf = (u) => ((u.details && typeof u.details.seat === 'string' && u.details.seat) ? u.details.seat : u.side);
  /** A zone board's axes: its seats (columns) and zones (rows), with any a unit adds. */
  function zoneAxes(f) {
    const seats = f.board.seats && f.board.seats.length ? [...f.board.seats] : f.sides.map((s) => s.id);
    const zones = [...(f.board.zones || [])];
    for (const u of f.units) {
      if (u.zone == null) continue;
      if (!seats.includes(seatOf(u))) seats.push(seatOf(u));
      if (!zones.includes(u.zone)) zones.push(u.zone);
    }
    return [seats, zones];
  }
  function where(u, seat) {
    if (u.position) return `position: (${fmt(u.position[0])}, ${fmt(u.position[1])})`;
    if (u.cell) return `cell: (${u.cell[0]}, ${u.cell[1]})`;
    if (u.zone != null) return `zone: ${u.zone}` + (seat ? `, seat: ${seat}` : '');
    return 'position: off board';
  }
  /** [id -> [x, y] on the board, id -> the unit's place in words] for frame ``f``. */
  function placements(f) {
    const kind = f.board.kind;
    const pts = {};
    const wh = {};
    if (kind === 'continuous') {
      for (const u of f.units) if (u.position) { pts[u.id] = [u.position[0], u.position[1]]; wh[u.id] = where(u); }
      return [pts, wh];
    }
    const groups = new Map();
    const add = (c, id) => {
      const key = `${c[0]},${c[1]}`;
      if (!groups.has(key)) groups.set(key, { centre: c, ids: [] });
      groups.get(key).ids.push(id);
    };
    if (kind === 'grid') {
      for (const u of f.units) if (u.cell) { add([u.cell[0] + 0.5, u.cell[1] + 0.5], u.id); wh[u.id] = where(u); }
      return [spread(groups), wh];
    }
    if (ctx.isRing(f)) return ctx.tablePlacements(f); // seats round a table (board-table.js)
    const [seats, zones] = zoneAxes(f);
    for (const u of f.units) {
      if (u.zone == null) continue;
      const seat = seatOf(u);
      add([seats.indexOf(seat), zones.indexOf(u.zone)], u.id);
      wh[u.id] = where(u, seat);
    }
    return [spread(groups), wh];
  }

  Object.assign(ctx, { zoneAxes, placements });
})();
