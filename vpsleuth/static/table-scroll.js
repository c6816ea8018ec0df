/* Tables whose columns scroll sideways between a pinned name and a pinned total
   (.table-wrap.pinned): say so only while the table is wider than its box, and shade
   the pinned columns' inner edge on the side where columns are hidden under them. */
(function () {
  "use strict";
  for (const wrap of document.querySelectorAll(".table-wrap.pinned")) {
    const cue = document.getElementById(wrap.dataset.cue);
    const update = function () {
      const hidden = wrap.scrollWidth - wrap.clientWidth;
      const over = hidden > 1;
      wrap.classList.toggle("overflows", over);
      wrap.classList.toggle("at-start", wrap.scrollLeft <= 1);
      wrap.classList.toggle("at-end", wrap.scrollLeft >= hidden - 1);
      if (cue) {
        cue.hidden = !over;
        cue.classList.toggle("shown", over);
      }
    };
    wrap.addEventListener("scroll", update, { passive: true });
    if (window.ResizeObserver) new ResizeObserver(update).observe(wrap);
    else window.addEventListener("resize", update);
    update();
  }
})();
