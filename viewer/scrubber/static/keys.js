/* Wake scrubber: keyboard scrubbing and the URL. ←/→ an event, Shift+←/→ or PgUp/PgDn a turn,
 * n/p a swing, Home/End; pressed in the frame or anywhere on the page around it (the frame is
 * same-origin; the newest scrubber on the page owns the keys), never while typing in a field.
 * Back/Forward on the page: the position in the top window's URL (?event=) is shown at once.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const { $ } = ctx;

  const KEYS = {
    ArrowRight: 'next', ArrowLeft: 'prev', PageDown: 'next-turn', PageUp: 'prev-turn',
    Home: 'start', End: 'end', n: 'next-swing', p: 'prev-swing',
  };
  function matchesSafe(el, selector) {
    try { return el.matches(selector); } catch (err) { return false; }
  }
  function onKey(e) {
    if (!ctx.P || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && t !== $('slider')) {
      const tag = (t.tagName || '').toUpperCase();
      // A radio chosen with the mouse (the sidebar's "View as") keeps the focus, and the
      // browser would move the choice on ←/→: keys scrub, a choice changes only when clicked.
      // A radio reached with Tab (focus-visible) keeps its keys for keyboard users.
      const clickedRadio = tag === 'INPUT' && t.type === 'radio' && !matchesSafe(t, ':focus-visible');
      if (clickedRadio && KEYS[e.key]) {
        e.preventDefault();
        t.blur();
      } else if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t.isContentEditable) return;
      const role = t.getAttribute && t.getAttribute('role');
      if (role && ['slider', 'combobox', 'listbox', 'option', 'textbox', 'spinbutton'].includes(role)) return;
    }
    let action = KEYS[e.key];
    if (e.shiftKey && e.key === 'ArrowRight') action = 'next-turn';
    if (e.shiftKey && e.key === 'ArrowLeft') action = 'prev-turn';
    if (!action) return;
    e.preventDefault();
    ctx.go(ctx.target(action));
  }
  document.addEventListener('keydown', onKey);
  // Keys pressed anywhere on the page (not only in this frame) scrub too: the frame is
  // same-origin; the newest scrubber on the page owns them.
  let parentDoc = null;
  try {
    parentDoc = window.parent.document;
    parentDoc.wakeScrubber = ctx.instance;
    const onParentKey = (e) => {
      if (parentDoc.wakeScrubber !== ctx.instance) {
        parentDoc.removeEventListener('keydown', onParentKey);
        return;
      }
      onKey(e);
    };
    parentDoc.addEventListener('keydown', onParentKey);
    window.addEventListener('pagehide', () => parentDoc.removeEventListener('keydown', onParentKey));
    // Back/Forward: Streamlit reruns with the URL's event and the server moves us; reading the
    // URL here as well shows the position at once.
    const onPop = () => {
      if (parentDoc.wakeScrubber !== ctx.instance || !ctx.P) return;
      const wanted = new URLSearchParams(window.parent.location.search).get('event');
      if (wanted !== null && /^\d+$/.test(wanted)) ctx.jump(Number(wanted));
    };
    window.parent.addEventListener('popstate', onPop);
    window.addEventListener('pagehide', () => window.parent.removeEventListener('popstate', onPop));
  } catch (err) {
    parentDoc = null; // another origin: keys work when this frame has the focus
  }
})();
