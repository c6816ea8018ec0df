/* "Notifications on this device" on the settings page.

   The button asks the browser for permission, subscribes this browser to push with the
   site's VAPID key (the form's data-key) through the service worker (/sw.js), puts the
   subscription's JSON into the form and sends the form as it is, CSRF token and all; the
   server answers with the settings page, the device in the list or the reason it was
   refused. Without this script the form stays hidden and the page says what it needs. */
(function () {
  "use strict";
  var form = document.getElementById("push-form");
  var needs = document.getElementById("push-needs");
  var status = document.getElementById("push-status");
  if (!form || !needs || !status) { return; }
  var label = document.getElementById("push-label");
  var field = document.getElementById("push-subscription");
  var button = document.getElementById("push-subscribe");

  function supported() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }

  function say(text, failed) {
    status.textContent = text;
    status.classList.toggle("failed", !!failed);
    status.setAttribute("role", failed ? "alert" : "status");
  }

  /* A name for the device from the browser's own description of itself, for the list
     of devices ("Firefox on Android"); the person may change it before sending. */
  function deviceName() {
    var ua = navigator.userAgent;
    var browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox"
      : /(Chrome|Chromium|CriOS)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "";
    var system = /Android/.test(ua) ? "Android" : /iPhone/.test(ua) ? "iPhone"
      : /iPad/.test(ua) ? "iPad" : /Windows/.test(ua) ? "Windows"
      : /Mac OS X/.test(ua) ? "Mac" : /Linux/.test(ua) ? "Linux" : "";
    return [browser, system].filter(Boolean).join(" · ");
  }

  /* The VAPID key as PushManager.subscribe wants it: base64url to bytes. */
  function keyBytes(text) {
    var base64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+")
      .replace(/_/g, "/");
    var raw = window.atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  /* Notification.requestPermission as a promise (older browsers take a callback). */
  function askPermission() {
    return new Promise(function (resolve) {
      var answer = Notification.requestPermission(resolve);
      if (answer && typeof answer.then === "function") { answer.then(resolve); }
    });
  }

  if (!supported()) {
    needs.textContent = form.getAttribute("data-unsupported");
    return;
  }
  needs.hidden = true;
  form.hidden = false;
  if (label && !label.value) { label.value = deviceName(); }
  if (Notification.permission === "denied") { say(form.getAttribute("data-denied"), true); }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    button.disabled = true;
    say(form.getAttribute("data-asking"));
    askPermission()
      .then(function (permission) {
        if (permission !== "granted") {
          say(form.getAttribute("data-denied"), true);
          return null;
        }
        return navigator.serviceWorker.register("/sw.js", { scope: "/" })
          .then(function () { return navigator.serviceWorker.ready; })
          .then(function (registration) {
            return registration.pushManager.subscribe({
              userVisibleOnly: true, applicationServerKey: keyBytes(form.getAttribute("data-key"))
            });
          })
          .then(function (subscription) {
            field.value = JSON.stringify(subscription);
            form.submit();  // the page reloads with the device listed, or the reason
            return subscription;
          });
      })
      .catch(function (error) {
        // The browser's own words after ours (e.g. no push service in this browser).
        var reason = error && (error.message || error.name) ? error.message || error.name : "";
        say(form.getAttribute("data-failed") + " " + reason, true);
      })
      .then(function () { button.disabled = false; });
  });
}());
