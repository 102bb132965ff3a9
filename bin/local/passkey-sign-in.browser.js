/*
 * The local sign-in page's "Use a passkey" button (served by bin/local/oidc-provider.ts beside @simplewebauthn/browser's
 * bundle, the only scripts the page's Content-Security-Policy allows): asks the provider for this interaction's
 * challenge, lets the browser's authenticator answer it (the person verified), and posts the answer in the page's
 * own form, so the provider verifies it and the sign-in goes on as a password's would.
 */
(function () {
  const button = document.getElementById('passkey-sign-in');
  const form = document.getElementById('passkey-form');
  const said = document.getElementById('passkey-status');
  if (!button || !form || !said) return;
  button.hidden = false;
  button.addEventListener('click', async function () {
    said.textContent = '';
    try {
      const answer = await fetch(form.getAttribute('data-options'), { method: 'POST', credentials: 'same-origin' });
      if (!answer.ok) throw new Error('options');
      const optionsJSON = await answer.json();
      const assertion = await globalThis.SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: optionsJSON });
      form.elements.namedItem('assertion').value = JSON.stringify(assertion);
      form.submit();
    } catch {
      said.textContent = 'No passkey was used. Try again, or sign in with your email and password.';
    }
  });
})();
