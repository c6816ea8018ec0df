/* Player pages: show <time> elements in the reader's own time zone (or the one
   chosen in the settings, data-tz) and keep "time left" current. No inline code:
   the pages' Content-Security-Policy allows scripts from this site only. */
(function () {
  "use strict";
  var lang = ({ de: "de", es: "es" })[document.documentElement.lang] || "en";
  var words = {
    en: { day: ["day", "days"], hour: ["hour", "hours"], minute: ["minute", "minutes"],
          left: "{} left", passed: "the deadline has passed" },
    de: { day: ["Tag", "Tage"], hour: ["Stunde", "Stunden"], minute: ["Minute", "Minuten"],
          left: "noch {}", passed: "der Abgabetermin ist vorbei" },
    es: { day: ["día", "días"], hour: ["hora", "horas"], minute: ["minuto", "minutos"],
          left: "quedan {}", passed: "el plazo ha vencido" }
  }[lang];

  function unit(n, pair) { return n + " " + pair[n === 1 ? 0 : 1]; }

  function left(deadline, now) {
    var seconds = Math.floor((deadline - now) / 1000);
    if (seconds <= 0) { return words.passed; }
    var minutes = Math.max(1, Math.floor(seconds / 60));
    var days = Math.floor(minutes / 1440), hours = Math.floor(minutes % 1440 / 60);
    var mins = minutes % 60, parts = [];
    if (days === 0 && hours < 6) {
      if (hours) { parts.push(unit(hours, words.hour)); }
      if (mins) { parts.push(unit(mins, words.minute)); }
    } else {
      if (days) { parts.push(unit(days, words.day)); }
      if (hours) { parts.push(unit(hours, words.hour)); }
    }
    return words.left.replace("{}", parts.join(" "));
  }

  function localise() {
    var times = document.querySelectorAll("time.js-local-time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var el = times[i], moment = new Date(el.getAttribute("datetime"));
      if (isNaN(moment)) { continue; }
      var options = { weekday: "short", day: "numeric", month: "short", year: "numeric",
                      hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
      var zone = el.getAttribute("data-tz");
      if (zone) { options.timeZone = zone; }
      try {
        el.textContent = new Intl.DateTimeFormat({ de: "de-DE", es: "es-ES" }[lang] || "en-GB", options)
          .format(moment);
        el.title = el.getAttribute("datetime").replace("T", " ").replace("Z", " UTC");
        el.classList.add("localised");
      } catch (err) { /* an unknown zone: keep the server's text */ }
    }
  }

  function tick() {
    var spans = document.querySelectorAll(".time-left[data-deadline]");
    var now = Date.now();
    for (var i = 0; i < spans.length; i++) {
      var deadline = new Date(spans[i].getAttribute("data-deadline")).getTime();
      if (isNaN(deadline)) { continue; }
      spans[i].textContent = left(deadline, now);
      spans[i].classList.toggle("passed", deadline <= now);
    }
  }

  localise();
  tick();
  window.setInterval(tick, 30000);
}());
