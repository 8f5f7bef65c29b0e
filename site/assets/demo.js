// demo.js turns a demo's poster into the live simulator on request.
//
// Each ```sim block of an article is a <figure class="demo"> holding an SVG
// poster rendered at build time and a hidden play button. This script shows
// the buttons; pressing one (or clicking the poster) adds an iframe of
// play.html (the figure's data-src) over the poster. Only then is the wasm
// runtime fetched and started, so a page with many demos runs none until
// the reader asks, and one per demo the reader starts.
//
// One exception, opt-in per page (and used by the ring article's first demo): the first figure marked data-autoplay
// (view: {autoplay: true} in its sim block) starts by itself when half of
// it scrolls into view, provided no demo of the page runs yet and the
// reader has not asked for reduced motion. The index's hero demo uses it.
//
// The poster stays in the page under the iframe, so printing shows it
// (print CSS hides iframes). Without JavaScript, poster and caption remain.
"use strict";
(function () {
  var running = 0;

  // start gives the figure its live iframe: a new one, or the src-less
  // placeholder that autoplay figures carry from the start.
  function start(fig) {
    var iframe = fig.querySelector("iframe");
    if (iframe && iframe.getAttribute("src")) return;
    if (!iframe) {
      iframe = document.createElement("iframe");
      iframe.title = fig.dataset.title || "Live demo";
      iframe.setAttribute("allow", "fullscreen");
      fig.querySelector(".frame").appendChild(iframe);
    }
    iframe.addEventListener("load", function () { iframe.focus(); });
    iframe.src = fig.dataset.src;
    fig.classList.add("live");
    running++;
  }

  function init() {
    var figures = document.querySelectorAll("figure.demo[data-src]");
    figures.forEach(function (fig) {
      var button = fig.querySelector("button.play");
      var poster = fig.querySelector(".poster");
      if (button) {
        button.hidden = false;
        button.addEventListener("click", function () { start(fig); });
      }
      if (poster) poster.addEventListener("click", function () { start(fig); });
    });
    var auto = document.querySelector("figure.demo[data-autoplay]");
    var calm = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (auto && !calm && "IntersectionObserver" in window) {
      var observer = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) {
          if (!e.isIntersecting) return;
          observer.disconnect();
          if (running === 0) start(auto);
        });
      }, { threshold: 0.5 });
      observer.observe(auto);
    }
  }

  window.paraplayDemos = { running: function () { return running; } };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
