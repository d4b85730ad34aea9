/**
 * The page a sign-in mail links to. The code travels in the URL fragment, which browsers never
 * send to the server (so it is in no log), and is only spent when the person presses the
 * button: mail scanners that open links do not use it up.
 */
export const MAGIC_LINK_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Fieldpost sign-in</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"></head>
<body style="font-family:sans-serif;max-width:40em;margin:2em auto">
<h1>Sign in to Fieldpost</h1>
<p id="msg">Press the button to get an API token for this device.</p>
<button id="go">Sign in</button>
<pre id="out" style="white-space:pre-wrap"></pre>
<script>
const code = new URLSearchParams(location.hash.slice(1)).get('token');
document.getElementById('go').onclick = async () => {
  const res = await fetch('redeem-target', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: code, tokenName: 'browser sign-in' }) });
  const body = await res.json();
  document.getElementById('msg').textContent = res.ok ? 'Your API token (shown once; keep it):' : (body.detail || 'Sign-in failed.');
  document.getElementById('out').textContent = res.ok ? body.token : '';
  document.getElementById('go').remove();
};
</script></body></html>`.replace('redeem-target', '/api/v1/auth/magic-links/redeem');
