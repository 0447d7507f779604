/* global window, document */
// Passkeys on the sign-in and security pages (docs/second-factor.md, "Passkeys"), with the browser part
// of SimpleWebAuthn served beside it by this server. Without JavaScript, or without WebAuthn, the
// passkey controls stay hidden and every other form works as before.
(function () {
  'use strict';
  var W = window.SimpleWebAuthnBrowser;
  if (!W || !W.browserSupportsWebAuthn()) return;

  function optionsOf(id) {
    var element = document.getElementById(id);
    return element ? JSON.parse(element.textContent) : null;
  }
  function ignore() {}

  // Sign-in: the button, and the passkeys the browser offers in the email field's autofill (conditional
  // mediation). Either one posts the assertion in the sign-in form's `passkey` field, with its hidden
  // inputs (the CSRF token, the pending request), no email and no password.
  var block = document.getElementById('passkey-sign-in');
  if (block) {
    var signIn = block.closest('form');
    var request = optionsOf('passkey-request');
    // Added here, not in the markup: without this script the page posts no passkey field at all.
    var post = function (response) {
      var field = document.createElement('input');
      field.type = 'hidden';
      field.name = 'passkey';
      field.value = JSON.stringify(response);
      signIn.appendChild(field);
      signIn.submit();
    };
    block.hidden = false;
    block.querySelector('button').addEventListener('click', function () {
      W.startAuthentication({ optionsJSON: request }).then(post, ignore);
    });
    W.browserSupportsWebAuthnAutofill().then(function (supported) {
      if (supported) W.startAuthentication({ optionsJSON: request, useBrowserAutofill: true }).then(post, ignore);
    });
  }

  // Security page: **Add a passkey** creates the credential, then posts it with its name.
  var add = document.getElementById('passkey-add');
  if (add) {
    add.hidden = false;
    add.addEventListener('submit', function (event) {
      if (add.elements.credential.value) return;
      event.preventDefault();
      W.startRegistration({ optionsJSON: optionsOf('passkey-create') }).then(function (response) {
        add.elements.credential.value = JSON.stringify(response);
        add.submit();
      }, ignore);
    });
  }
})();
