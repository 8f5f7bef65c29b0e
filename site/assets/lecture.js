// lecture.js drives the example deck: one slide at a time (→/← or the
// buttons, and #sN in the address), and a demo's iframe gets its src when
// its slide is first shown, so the deck runs one simulator at a time.
// Keys typed while a demo has focus go to the demo (PageDown steps it); a
// click beside the demo gives the keyboard back to the deck.
"use strict";
(function () {
  const slides = Array.from(document.querySelectorAll(".slide"));
  let cur = 0;

  function show(i) {
    cur = Math.max(0, Math.min(slides.length - 1, i));
    slides.forEach((s, k) => s.classList.toggle("current", k === cur));
    const frame = slides[cur].querySelector("iframe.demo");
    if (frame && !frame.src && frame.dataset.src) frame.src = frame.dataset.src;
    // Slides left behind stop their demo: blank them to free the runtime.
    slides.forEach((s, k) => {
      const f = s.querySelector("iframe.demo");
      if (f && k !== cur && f.src) f.removeAttribute("src");
    });
    document.getElementById("count").textContent = (cur + 1) + " / " + slides.length;
    history.replaceState(null, "", "#" + slides[cur].id);
  }

  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "ArrowRight" || e.key === "PageDown" || e.key === " ") { e.preventDefault(); show(cur + 1); }
    if (e.key === "ArrowLeft" || e.key === "PageUp") { e.preventDefault(); show(cur - 1); }
    if (e.key === "Home") show(0);
    if (e.key === "End") show(slides.length - 1);
  });
  document.getElementById("prev-slide").addEventListener("click", () => show(cur - 1));
  document.getElementById("next-slide").addEventListener("click", () => show(cur + 1));
  const start = slides.findIndex((s) => "#" + s.id === location.hash);
  show(start >= 0 ? start : 0);
})();
