/* Every page: register the service worker (/sw.js), which makes the site installable on a
   phone's home screen and shows push notices. It caches nothing, so registering it on
   every page costs one small request now and then; a browser without service workers
   simply has no app and no push notices. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) { return; }
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
    // Refused (a private window, a policy): the site works the same without it.
  });
}());
