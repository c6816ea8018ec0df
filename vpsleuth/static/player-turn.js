/* The turn form: at most two of colour, kind and size can be chosen for a
   question (the third select is disabled), a live count of tips, and a preview.
   The server checks all of this again; the form works without this script. */
(function () {
  "use strict";
  var form = document.getElementById("turn-form");
  if (!form) { return; }
  var place = document.getElementById("q-place");
  var attrs = Array.prototype.slice.call(form.querySelectorAll("select.js-q-attr"));
  var note = document.getElementById("q-note");
  var count = document.getElementById("tip-count");

  function limitAttributes() {
    var chosen = attrs.filter(function (s) { return s.value !== ""; });
    var full = chosen.length >= 2;
    attrs.forEach(function (s) {
      var lock = full && s.value === "";
      s.disabled = lock;
      if (lock) { s.setAttribute("aria-disabled", "true"); } else { s.removeAttribute("aria-disabled"); }
    });
    if (note) { note.hidden = !full; }
  }

  function countTips() {
    if (!count) { return; }
    var n = form.querySelectorAll(".tip-row input[type=radio]:checked:not([value=''])").length;
    count.textContent = String(n);
  }

  attrs.forEach(function (s) { s.addEventListener("change", limitAttributes); });
  if (place) {
    place.addEventListener("change", function () {
      if (place.value === "") {
        attrs.forEach(function (s) { s.value = ""; });
        limitAttributes();
      }
    });
  }
  form.addEventListener("change", function (event) {
    if (event.target && event.target.type === "radio") { countTips(); }
  });
  limitAttributes();
  countTips();
}());
