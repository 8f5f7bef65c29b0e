// theme.js applies the reader's light/dark choice before the page paints
// (it is loaded synchronously in <head>), and wires the header's toggle.
// Without a stored choice the site follows the system (prefers-color-scheme,
// in style.css); the toggle stores an explicit "light" or "dark".
"use strict";
(function () {
  var root = document.documentElement;
  var key = "paraplay-theme";
  try {
    var saved = localStorage.getItem(key);
    if (saved === "light" || saved === "dark") root.dataset.theme = saved;
  } catch (e) { /* storage may be disabled; follow the system */ }

  function isDark() {
    if (root.dataset.theme) return root.dataset.theme === "dark";
    return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector(".theme-toggle");
    if (!button) return;
    function label() {
      button.title = isDark() ? "Switch to the light theme" : "Switch to the dark theme";
    }
    button.hidden = false;
    label();
    button.addEventListener("click", function () {
      var next = isDark() ? "light" : "dark";
      root.dataset.theme = next;
      try { localStorage.setItem(key, next); } catch (e) { /* session only */ }
      label();
    });
  });
})();
