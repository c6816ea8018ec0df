/* The notebook on the information sheet. A tap (or Enter or Space) moves a cell on to
   its next mark: yes, no, maybe, none. Arrow keys move between cells (the grid is one
   stop for Tab), a mark's key (Y or J or S, N, M or ?; the legend shows the reader's)
   and Delete set it. Marks and notes are saved a moment after
   each change, one request at a time, and once more when the page is left.
   Without this script each cell is a submit button and the notes go with the form. */
(function () {
  "use strict";
  var form = document.getElementById("notebook-form");
  var table = document.getElementById("notebook-grid");
  if (!form || !table || !window.fetch || !window.URLSearchParams) { return; }
  var cells = Array.prototype.slice.call(table.querySelectorAll("button.mark"));
  var notes = document.getElementById("notes");
  var status = document.getElementById("notebook-status");
  var COLUMNS = table.querySelectorAll("thead th").length - 1;
  var CYCLE = ["", "yes", "no", "maybe"];
  var GLYPH = { "": "", yes: "\u2713", no: "\u2717", maybe: "?" };
  var CODE = { "": ".", yes: "y", no: "n", maybe: "m" };
  // Yes, ja, sí; no, nein; maybe, vielleicht, quizá: every language's key works for everyone.
  var KEYS = { y: "yes", j: "yes", s: "yes", n: "no", m: "maybe", v: "maybe", q: "maybe",
               "?": "maybe", Delete: "", Backspace: "" };
  var timer = null;
  var busy = false;
  var again = false;
  var dirty = false;
  var current = 0;

  function keyOf(event) {  // J and j alike (Caps Lock, Shift)
    return event.key.length === 1 ? event.key.toLowerCase() : event.key;
  }

  function markOf(cell) { return cell.getAttribute("data-mark") || ""; }

  function setMark(cell, mark) {
    if (markOf(cell) === mark) { return; }
    cell.setAttribute("data-mark", mark);
    cell.className = "mark" + (mark ? " mark-" + mark : "");
    cell.textContent = GLYPH[mark];
    cell.setAttribute("aria-label", cell.value.replace(".", " ") + ": " +
                      table.getAttribute("data-" + (mark || "empty")));
    changed(700);
  }

  function grid() {
    return cells.map(function (cell) { return CODE[markOf(cell)]; }).join("");
  }

  function show(text, failed) {
    status.textContent = text;
    status.classList.toggle("failed", !!failed);
  }

  function changed(delay) {
    dirty = true;
    clearTimeout(timer);
    timer = setTimeout(save, delay);
  }

  function save(leaving) {
    clearTimeout(timer);
    timer = null;
    if (busy) { again = true; return; }
    if (!dirty) { return; }
    dirty = false;
    busy = true;
    var body = new URLSearchParams();
    body.append("csrf_token", form.elements.csrf_token.value);
    body.append("grid", grid());
    body.append("notes", notes.value);
    show(status.getAttribute("data-saving"));
    fetch(form.action, { method: "POST", body: body, credentials: "same-origin",
                         headers: { Accept: "application/json" }, keepalive: leaving === true })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        // Signed out: the answer is the sign-in page (a redirect), not JSON.
        if (!response.ok || response.redirected || type.indexOf("application/json") !== 0) {
          throw new Error("not saved");
        }
        return response.json();
      })
      .then(function () {
        var time = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
        show(status.getAttribute("data-saved") + " " + time);
      })
      .catch(function () {
        show(status.getAttribute("data-failed"), true);
        dirty = true;
        timer = setTimeout(save, 15000);
      })
      .then(function () {
        busy = false;
        if (again) { again = false; save(); }
      });
  }

  function focusCell(index) {
    index = Math.max(0, Math.min(cells.length - 1, index));
    cells[current].tabIndex = -1;
    current = index;
    cells[current].tabIndex = 0;
    cells[current].focus();
  }

  function move(event) {
    var col = current % COLUMNS;
    switch (event.key) {
      case "ArrowRight": return col < COLUMNS - 1 ? current + 1 : current;
      case "ArrowLeft": return col > 0 ? current - 1 : current;
      case "ArrowDown": return current + COLUMNS;
      case "ArrowUp": return current - COLUMNS;
      case "Home": return event.ctrlKey ? 0 : current - col;
      case "End": return event.ctrlKey ? cells.length - 1 : current - col + COLUMNS - 1;
      case "PageDown": return current + 4 * COLUMNS;
      case "PageUp": return current - 4 * COLUMNS;
      default: return null;
    }
  }

  // One Tab stop for the whole grid: the cell last used (or the one named in the URL).
  cells.forEach(function (cell, index) {
    cell.tabIndex = -1;
    if (location.hash === "#" + cell.id) { current = index; }
  });
  cells[current].tabIndex = 0;

  table.addEventListener("click", function (event) {
    var cell = event.target.closest("button.mark");
    if (!cell) { return; }
    event.preventDefault();  // no page load: the change is saved in the background
    var next = CYCLE[(CYCLE.indexOf(markOf(cell)) + 1) % CYCLE.length];
    setMark(cell, next);
    focusCell(cells.indexOf(cell));
  });
  table.addEventListener("keydown", function (event) {
    var cell = event.target.closest("button.mark");
    if (!cell || event.altKey || event.metaKey) { return; }
    current = cells.indexOf(cell);
    var target = move(event);
    if (target !== null) {
      event.preventDefault();
      focusCell(target);
    } else if (!event.ctrlKey && Object.prototype.hasOwnProperty.call(KEYS, keyOf(event))) {
      event.preventDefault();
      setMark(cell, KEYS[keyOf(event)]);
    }
  });
  notes.addEventListener("input", function () { changed(1200); });
  form.addEventListener("submit", function (event) {
    event.preventDefault();  // "Save notes" saves at once, without leaving the page
    dirty = true;
    save();
  });
  window.addEventListener("pagehide", function () { if (dirty) { save(true); } });
}());
