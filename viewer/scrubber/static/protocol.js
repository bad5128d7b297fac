/* Wake scrubber: the Streamlit component protocol (v1, plain postMessage, no build step).
 *
 * In: 'streamlit:render' messages carry the game (args.payload: base64 of zlib'd JSON, inflated
 * here once per payload_id), the annotations, and the position the server wants (args.event,
 * honoured only when args.token changes: first load, Back/Forward, a link).
 * Out: the frame's height as the page grows or shrinks, and the position the user settled on
 * (setComponentValue, debounced: ctx.report), which the app catches up with.
 */
'use strict';
(() => {
  const ctx = window.wakeCtx;
  const REPORT_DELAY_MS = 250;

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
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const msg = event.data;
    if (msg && msg.type === 'streamlit:render') onRender(msg.args || {});
  });

  async function inflate(b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return JSON.parse(await new Response(stream).text());
  }

  let payloadId = null;
  let loading = null;
  let reportTimer = 0;
  let counter = 0;
  async function onRender(args) {
    if (args.payload_id !== payloadId) {
      payloadId = args.payload_id;
      const mine = payloadId;
      loading = inflate(args.payload);
      const data = await loading;
      if (mine !== payloadId) return; // a newer game arrived meanwhile
      ctx.start(data);
      ctx.showNotes(args.notes);
      ctx.token = args.token;
      ctx.jump(args.event);
      return;
    }
    if (loading) await loading;
    ctx.showNotes(args.notes);
    if (args.token !== ctx.token) { // the server moved the position (Back/Forward, a link)
      ctx.token = args.token;
      clearTimeout(reportTimer);
      ctx.reported = args.event;
      ctx.jump(args.event);
    }
  }

  function report() {
    clearTimeout(reportTimer);
    reportTimer = setTimeout(() => {
      if (ctx.pos === ctx.reported) return;
      ctx.reported = ctx.pos;
      counter += 1;
      send('streamlit:setComponentValue', {
        value: { event: ctx.pos, token: ctx.token, n: counter, game: ctx.P.game }, dataType: 'json',
      });
    }, REPORT_DELAY_MS);
  }

  new ResizeObserver(fitHeight).observe(document.body);

  Object.assign(ctx, { send, fitHeight, report });
})();
