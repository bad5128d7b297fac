/* Wake scrubber: the units' labels on the board, placed so that they never collide. Each
 * label takes the first of its candidate places (around a marker, or around a unit's
 * outline) whose box, estimated in screen pixels, meets no label already placed and no other
 * unit's marker (as viewer/label_place.py places the Python board's); the units the
 * current event names go first. A label with no free place is left off the board (its hover
 * and the unit's details still name it). A label is in players' words: the unit's name as the
 * Python board writes it, with its damage once it has taken any.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $ } = ctx;

  const MARKER_PLACES = ['top center', 'bottom center', 'middle right', 'middle left',
    'top right', 'top left', 'bottom right', 'bottom left'];
  const CHAR_PX = 6.2;
  const LINE_PX = 12;
  const LABEL_PAD = 1.5; // px around each label box: estimates, not glyph boxes
  function labelBox(x, y, place, w, gap) {
    const [v, hz] = place.split(' ');
    const d = hz === 'center' || v === 'middle' ? gap : gap * 0.7;
    const bx = hz === 'center' ? x - w / 2 : (hz === 'right' ? x + d : x - d - w);
    const by = v === 'middle' ? y - LINE_PX / 2 : (v === 'top' ? y - d - LINE_PX : y + d);
    return [bx - LABEL_PAD, by - LABEL_PAD, bx + w + LABEL_PAD, by + LINE_PX + LABEL_PAD];
  }
  const meets = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  function outlineBox(u) {
    const closed = u.shapes.filter((sh) => sh.closed);
    const pts = (closed.length ? closed : u.shapes).flatMap((sh) => sh.ring);
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  /** The note most of a grid's boxes share (Iron & Oak's "depth 5 ↑"), drawn only in the
   *  hover so that the exceptions stand out (issue 21 item 10); null when none is. */
  function commonCellLabel(cells) {
    const counts = new Map();
    for (const c of cells) if (c.label) counts.set(c.label, (counts.get(c.label) || 0) + 1);
    for (const [label, count] of counts) if (count > cells.length / 2 && count > 1) return label;
    return null;
  }
  /** Where each unit's label goes: id -> {x, y, place} in board coordinates, or null when
   *  no place is free inside the plot. ``toPx`` maps a board point to screen pixels and
   *  ``toPx.bounds`` is the plot area; the labels of board features and overlays (centred on
   *  their point) are there first. */
  function placeLabels(f, pts, toPx, focusIds) {
    const units = f.units.filter((u) => pts[u.id] && !u.private && (ctx.showOut || u.status === 'active'));
    units.sort((a, b) => Number(focusIds.has(b.id)) - Number(focusIds.has(a.id)));
    const boxes = [];
    for (const g of [...(f.board.features || []), ...(f.overlays || [])]) {
      if (!g.at || !g.label) continue;
      const [px, py] = toPx(g.at[0], g.at[1]);
      const w = g.label.length * CHAR_PX;
      boxes.push([px - w / 2, py - LINE_PX / 2, px + w / 2, py + LINE_PX / 2]);
    }
    const common = commonCellLabel(f.board.cells || []);  // left to the hover: not drawn
    for (const c of f.board.cells || []) { // a grid cell's note, written from its corner
      if (!c.label || c.label === common) continue;
      const [px, py] = toPx(c.cell[0] + 0.03, c.cell[1] + 0.03);
      boxes.push([px, py, px + c.label.length * 5.2, py + 11]);
    }
    // what a hull zone writes inside it (its shields), centred, as the Python board blocks it
    for (const u of f.units) {
      if (u.status !== 'active' || !u.shapes) continue;
      for (const s of u.shapes) {
        if (!s.label || !s.at) continue;
        const [px, py] = toPx(s.at[0], s.at[1]);
        const w = s.label.length * CHAR_PX;
        boxes.push([px - w / 2, py - LINE_PX / 2, px + w / 2, py + LINE_PX / 2]);
      }
    }
    // every unit's marker as drawn (board-traces.js unitTrace, its 2 px outline included; an
    // out-of-play unit's cross is 12 px), as viewer/label_place.py keeps them clear: no label
    // over another unit's marker
    const markers = new Map();
    for (const u of f.units) {
      if (!pts[u.id] || !(ctx.showOut || u.status === 'active')) continue;
      const [mx, my] = toPx(pts[u.id][0], pts[u.id][1]);
      const r = (u.status === 'active' ? ctx.markerSize(u) : 12) / 2 + 1;
      markers.set(u.id, [mx - r, my - r, mx + r, my + r]);
    }
    const [bx0, by0, bx1, by1] = toPx.bounds;
    const inside = (b) => b[0] >= bx0 && b[2] <= bx1 && b[1] >= by0 && b[3] <= by1;
    const out = new Map();
    for (const u of units) {
      const [mx, my] = toPx(pts[u.id][0], pts[u.id][1]);
      if (mx < bx0 || mx > bx1 || my < by0 || my > by1) continue;  // out of view (zoomed in)
      const text = unitLabel(u);
      const w = text.length * CHAR_PX + 4;
      let options;
      if (u.shapes && u.status === 'active') {
        const [x0, y0, x1, y1] = outlineBox(u);
        const cx = (x0 + x1) / 2; const cy = (y0 + y1) / 2;
        // below the outline first (where names always were), then above, right, left
        options = [[cx, y0, 'bottom center'], [cx, y1, 'top center'], [x1, cy, 'middle right'], [x0, cy, 'middle left']]
          .map(([x, y, place]) => [x, y, toPx(x, y), screenPlace(place, toPx), 2]);
      } else {
        const [x, y] = pts[u.id];
        const gap = (u.status === 'active' ? ctx.markerSize(u) : 12) / 2 + 1;
        options = MARKER_PLACES.map((place) => [x, y, toPx(x, y), place, gap]);
      }
      let chosen = null;
      // a marker's own dot is where its label hangs from, not in its way
      const others = [...markers].filter(([id]) => id !== u.id || u.shapes).map(([, b]) => b);
      for (const [x, y, [px, py], place, gap] of options) {
        const box = labelBox(px, py, place, w, gap);
        if (!inside(box) || boxes.some((b) => meets(b, box)) || others.some((b) => meets(b, box))) continue;
        boxes.push(box);
        chosen = { x, y, place };
        break;
      }
      out.set(u.id, chosen);
    }
    return out;
  }
  // a plotly text position names the side on screen; on a board whose y axis runs down the
  // outline's low-y edge is at the top
  function screenPlace(place, toPx) {
    if (toPx(0, 0)[1] > toPx(0, 1)[1]) return place; // y runs up the screen
    return place.replace('bottom', 'TOP').replace('top', 'bottom').replace('TOP', 'top');
  }
  // the label: the unit's id, and its damage as a number once it has taken any (the fill's
  // fade alone was too faint to read)
  // a board label in players' words: the name the Python board gives the unit (the payload's
  // ``label``: Admiral Graf Spee, TIE Fighter Squadron 2), never its id; one with no room is
  // left to the hover
  const shortName = (u) => u.label || u.name || '';
  const unitLabel = (u) => (u.damage > 0 && u.strength > 0 ? `${shortName(u)} ${u.damage}/${u.strength}` : shortName(u));

  /** Board coordinates to screen pixels (relative), for the label boxes: the plot area's
   *  size (as last drawn: plotly widens margins for tick labels) and the axis ranges set by
   *  boardFrame; equal scales where the axes are anchored. */
  function pixelMap(layout) {
    const node = $('board');
    const size = node._fullLayout && node._fullLayout._size;
    const w = Math.max(size ? size.w : (node.clientWidth || 700) - layout.margin.l - layout.margin.r, 100);
    const h = Math.max(size ? size.h : layout.height - layout.margin.t - layout.margin.b, 100);
    const [x0, x1] = layout.xaxis.range;
    const [y0, y1] = layout.yaxis.range;
    let sx = w / Math.abs(x1 - x0);
    let sy = h / Math.abs(y1 - y0);
    if (layout.yaxis.scaleanchor) { sx = Math.min(sx, sy); sy = sx; }
    const up = y1 > y0 ? 1 : -1;
    const toPx = (x, y) => [(x - x0) * sx, -(y - y0) * sy * up];
    toPx.bounds = [0, -Math.abs(y1 - y0) * sy, Math.abs(x1 - x0) * sx, 0];
    return toPx;
  }

  Object.assign(ctx, { placeLabels, unitLabel, pixelMap, commonCellLabel });
})();
