/* Wake watch: a Streamlit component (protocol v1, plain postMessage, no build step) that
 * follows a scribe's page's position (viewer/scribe/watch.py).
 *
 * The page gives a token for the position it shows; this asks /wake-watch/<token>, which
 * answers when the game has moved on (or after a while that it has not: then it asks again).
 * When it has moved on, the component's value changes, which re-runs the page on the new
 * position and gives a new token. A failed request is tried again a little later; a token the
 * server does not know (it restarted) re-runs the page once, for a new one.
 */
(function () {
  'use strict';
  const RETRY_MS = 2000;
  let token = null;
  let sent = null;

  const send = (type, data) => {
    window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type }, data || {}), '*');
  };
  const rerun = (why) => {
    if (sent === token) return; // once per position
    sent = token;
    send('streamlit:setComponentValue', { value: { token, why }, dataType: 'json' });
  };
  const address = (t) => new URL(`../../wake-watch/${encodeURIComponent(t)}`, document.baseURI);

  async function follow(t) {
    while (t === token) {
      let answer = null;
      let status = 0;
      try {
        const response = await fetch(address(t), { cache: 'no-store', credentials: 'same-origin' });
        status = response.status;
        if (response.ok || status === 404) answer = await response.json();
      } catch (error) {
        answer = null;
      }
      if (t !== token) return; // the page moved on meanwhile
      if (answer && answer.moved === true) {
        rerun('moved');
        return;
      }
      if (status === 404) {
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        if (t === token) rerun('expired');
        return;
      }
      if (!answer) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const msg = event.data;
    if (!msg || msg.type !== 'streamlit:render') return;
    const next = msg.args && typeof msg.args.token === 'string' ? msg.args.token : null;
    if (next && next !== token) {
      token = next;
      follow(next);
    }
  });
  send('streamlit:componentReady', { apiVersion: 1 });
  send('streamlit:setFrameHeight', { height: 0 });
})();
