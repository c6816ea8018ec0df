// The GM console: a question before grave actions, one submit per click,
// the schedule fields that fit the chosen kind, and a copy button.
// Everything works without this file; it only makes the pages kinder.
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
      return;
    }
    if (form.getAttribute("data-sent")) {
      event.preventDefault(); // a double click sends the form once
      return;
    }
    if ((form.method || "").toLowerCase() === "post") {
      form.setAttribute("data-sent", "1");
    }
  });

  // Back from the next page (bfcache): the forms may be sent again.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      form.removeAttribute("data-sent");
    });
  });

  function showSchedule() {
    var chosen = document.querySelector("input[name=schedule_kind]:checked");
    if (!chosen) {
      return;
    }
    document.querySelectorAll("[data-schedule]").forEach(function (part) {
      part.hidden = part.getAttribute("data-schedule") !== chosen.value;
    });
  }
  document.querySelectorAll("input[name=schedule_kind]").forEach(function (radio) {
    radio.addEventListener("change", showSchedule);
  });
  showSchedule();

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var source = document.getElementById(button.getAttribute("data-copy"));
      if (source && navigator.clipboard) {
        navigator.clipboard.writeText(source.textContent.trim()).then(function () {
          button.setAttribute("aria-pressed", "true");
        });
      }
    });
  });
})();
