/* The turn form. At most two of colour, kind and size can be chosen for a question (the
   third select is disabled); a live count of tips; a second way to tip, one place at a
   time (by place), kept as one with the grid (by gem): its boxes have no name, so only
   the grid's radios are sent; "Fill in last round's tips" without a page load, keeping
   what is picked; a note while changes are not saved; the sticky Save bar never hides a
   focused row. The server checks everything again, and the form works without this. */
(function () {
  "use strict";
  var form = document.getElementById("turn-form");
  if (!form) { return; }
  var place = document.getElementById("q-place");
  var attrs = Array.prototype.slice.call(form.querySelectorAll("select.js-q-attr"));
  var note = document.getElementById("q-note");
  var count = document.getElementById("tip-count");
  var rows = Array.prototype.slice.call(form.querySelectorAll(".tip-row"));
  var gems = rows.map(function (row) { return row.id.slice(4); });  // "tip-RD1" -> "RD1"

  function tipOf(gem) { return form.elements["tip-" + gem].value; }
  function setTip(gem, location) { form.elements["tip-" + gem].value = location; }

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
    count.textContent = String(gems.filter(function (g) { return tipOf(g) !== ""; }).length);
  }

  /* --- by place: one placeholder (or X) at a time, its gems as boxes to tick --- */
  var switcher = document.getElementById("view-switch");
  var byGem = document.getElementById("by-gem");
  var byPlace = document.getElementById("by-place");
  var tabs = byPlace ? Array.prototype.slice.call(byPlace.querySelectorAll(".place-tab")) : [];
  var picks = byPlace ? Array.prototype.slice.call(byPlace.querySelectorAll("input[data-gem]")) : [];
  var hint = document.getElementById("place-hint");
  var current = "A";

  function syncPlaces() {
    if (!byPlace) { return; }
    tabs.forEach(function (tab) {
      var here = tab.getAttribute("data-place");
      tab.setAttribute("aria-pressed", String(here === current));
      document.getElementById("place-count-" + here).textContent =
        String(gems.filter(function (g) { return tipOf(g) === here; }).length);
    });
    picks.forEach(function (box) {
      var gem = box.getAttribute("data-gem");
      var at = tipOf(gem);
      box.checked = at === current;
      var elsewhere = document.getElementById("elsewhere-" + gem);
      elsewhere.textContent = at && at !== current ?
        elsewhere.getAttribute("data-text").replace("{}", at) : "";
    });
    hint.textContent = current === "X" ? hint.getAttribute("data-x") :
      hint.getAttribute("data-place").replace("{}", current);
  }

  function showView(view) {
    byGem.hidden = view !== "gem";
    byPlace.hidden = view !== "place";
    switcher.querySelectorAll("button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-view") === view));
    });
    try { window.localStorage.setItem("vpsleuth.tipView", view); } catch (e) { /* private mode */ }
    syncPlaces();
  }

  if (switcher && byGem && byPlace) {
    switcher.hidden = false;
    switcher.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-view]");
      if (button) { showView(button.getAttribute("data-view")); }
    });
    byPlace.addEventListener("click", function (event) {
      var tab = event.target.closest(".place-tab");
      if (tab) { current = tab.getAttribute("data-place"); syncPlaces(); }
    });
    byPlace.addEventListener("change", function (event) {
      var box = event.target;
      if (!box.hasAttribute("data-gem")) { return; }
      var gem = box.getAttribute("data-gem");
      if (box.checked) { setTip(gem, current); } else if (tipOf(gem) === current) { setTip(gem, ""); }
      changed();
    });
    var saved = null;
    try { saved = window.localStorage.getItem("vpsleuth.tipView"); } catch (e) { /* private mode */ }
    showView(saved === "place" ? "place" : "gem");
  }

  /* --- last round's tips, filled in where nothing is picked --- */
  var prefill = document.getElementById("prefill");
  var prefillNote = document.getElementById("prefill-note");
  if (prefill && prefillNote && prefill.hasAttribute("data-tips")) {
    prefill.addEventListener("click", function (event) {
      event.preventDefault();  // no page load: nothing picked is lost
      var last = JSON.parse(prefill.getAttribute("data-tips"));
      var filled = 0;
      var kept = 0;
      Object.keys(last).forEach(function (gem) {
        if (tipOf(gem) === "") { setTip(gem, last[gem]); filled += 1; }
        else if (tipOf(gem) !== last[gem]) { kept += 1; }
      });
      var text = Object.keys(last).length ? prefillNote.getAttribute("data-filled") :
        prefillNote.getAttribute("data-none");
      if (kept) { text += " " + prefillNote.getAttribute("data-kept").replace("{}", String(kept)); }
      prefillNote.textContent = text;
      prefillNote.hidden = false;
      if (filled) { changed(); }
    });
  }

  /* --- unsaved changes --- */
  var unsaved = document.getElementById("unsaved");
  function state() {
    var parts = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit") { return; }
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) { return; }
      parts.push(el.name + "=" + el.value);
    });
    return parts.join("&");
  }
  var initial = state();
  function changed() {
    countTips();
    syncPlaces();
    if (unsaved) { unsaved.hidden = !form.hasAttribute("data-unsaved") && state() === initial; }
  }

  /* --- the sticky Save bar: the page keeps focused rows clear of its real height --- */
  var bar = form.querySelector(".save-bar");
  function padForBar() {
    if (bar) {
      document.documentElement.style.scrollPaddingBottom = (bar.offsetHeight + 16) + "px";
    }
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
    if (!event.target.hasAttribute("data-gem")) { changed(); }
  });
  form.addEventListener("input", function (event) {
    if (event.target.tagName === "TEXTAREA") { changed(); }
  });
  window.addEventListener("resize", padForBar);
  limitAttributes();
  countTips();
  padForBar();
  changed();

  /* A refused text: its errors stand just above it; show them with the text in view. */
  var errors = document.getElementById("text-errors");
  if (errors && errors.getBoundingClientRect().top < 0) {
    errors.scrollIntoView({ block: "start" });
  }
}());
