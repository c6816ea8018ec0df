/* VP-Sleuth's service worker, served at /sw.js so that its scope is the whole site.

   It does two things: it shows a push notice (RFC 8030; the payload is JSON
   {title, body, url, tag}, in the reader's language), and a tap on the notice opens
   the page it names, on this site only. It caches nothing: there is no fetch handler,
   so every page, with its turn or tips, comes from the server each time and none is
   kept for offline use. */
"use strict";

var ICON = "/static/icon-192.png";

/* The notice's url as an absolute URL of this site, or null: a payload never opens
   another site, whatever it says. */
function sameOriginUrl(raw) {
  if (typeof raw !== "string" || raw === "") { return null; }
  try {
    var url = new URL(raw, self.location.origin);
    return url.origin === self.location.origin ? url.href : null;
  } catch (error) {
    return null;
  }
}

/* What a tap on a notice does: focus a tab already at that page, else open one.
   Resolves to the focused or opened client (null for a url of another site). */
function openNoticePage(raw) {
  var url = sameOriginUrl(raw);
  if (url === null) { return Promise.resolve(null); }
  return self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (tabs) {
      for (var i = 0; i < tabs.length; i += 1) {
        if (tabs[i].url === url && "focus" in tabs[i]) { return tabs[i].focus(); }
      }
      return self.clients.openWindow(url);
    });
}

/* The notice from a push message's data; a message that is not our JSON shows nothing
   of itself (a browser then shows its own "the site was updated" line at most). */
function noticeOf(data) {
  var notice = null;
  try { notice = data ? data.json() : null; } catch (error) { notice = null; }
  if (!notice || typeof notice.title !== "string") { return null; }
  return {
    title: notice.title,
    options: {
      body: typeof notice.body === "string" ? notice.body : "",
      // One notice per game replaces the last one (the tag), quietly (no renotify).
      tag: typeof notice.tag === "string" ? notice.tag : "",
      renotify: false,
      icon: ICON,
      data: { url: sameOriginUrl(notice.url) || sameOriginUrl("/") }
    }
  };
}

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var notice = noticeOf(event.data);
  if (notice === null) { return; }
  event.waitUntil(self.registration.showNotification(notice.title, notice.options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var data = event.notification.data || {};
  event.waitUntil(openNoticePage(data.url));
});
