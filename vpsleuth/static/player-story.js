/* The story page while the story is being told: ask every few seconds whether it is
   ready (a small JSON answer, no story in it) and show it then. Without scripts the
   "Look again" link does the same by hand. */
(function () {
  "use strict";
  var note = document.getElementById("story-pending");
  if (!note || !window.fetch) { return; }
  var url = note.getAttribute("data-state-url");
  var tries = 0;
  function look() {
    tries += 1;
    if (tries > 200) { return; }  /* ten minutes: then the link is there */
    fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.ok ? r.json() : {state: "queued"}; })
      .then(function (s) {
        if (s.state === "ready" || s.state === "failed") { window.location.reload(); }
        else { window.setTimeout(look, 3000); }
      })
      .catch(function () { window.setTimeout(look, 3000); });
  }
  window.setTimeout(look, 2000);
}());
