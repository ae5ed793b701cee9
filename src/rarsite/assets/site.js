// rarsite's figures: switch each tool on and off, linear or log axes, a point's value and
// interval on hover or focus. No framework, no network; the page reads without it.
"use strict";

function rarsiteFigure(fig) {
  var controls = fig.querySelector(".controls");
  var tip = fig.querySelector(".tip");
  if (controls) controls.hidden = false;

  fig.querySelectorAll(".controls input[data-series]").forEach(function (box) {
    box.addEventListener("change", function () {
      var k = box.getAttribute("data-series");
      fig.querySelectorAll('g.series[data-series="' + k + '"]').forEach(function (g) {
        if (box.checked) g.removeAttribute("display");
        else g.setAttribute("display", "none");
      });
    });
  });

  var btn = fig.querySelector(".scalebtn");
  if (btn) {
    btn.addEventListener("click", function () {
      var log = fig.getAttribute("data-scale") !== "log";
      fig.setAttribute("data-scale", log ? "log" : "lin");
      btn.textContent = (log ? "linear" : "log") + " axes";
    });
  }

  function show(ev) {
    var pt = ev.target;
    if (!tip || !pt.classList || !pt.classList.contains("pt")) return;
    var box = fig.getBoundingClientRect(), r = pt.getBoundingClientRect();
    tip.textContent = pt.getAttribute("data-tip");
    tip.hidden = false;
    var left = r.left - box.left + r.width + 6;
    if (left + 260 > box.width) left = Math.max(0, r.left - box.left - 266);
    tip.style.left = left + "px";
    tip.style.top = (r.top - box.top - 8) + "px";
  }
  function hide(ev) {
    if (tip && ev.target.classList && ev.target.classList.contains("pt")) tip.hidden = true;
  }
  fig.addEventListener("mouseover", show);
  fig.addEventListener("focusin", show);
  fig.addEventListener("mouseout", hide);
  fig.addEventListener("focusout", hide);
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("figure.fig").forEach(rarsiteFigure);
  document.documentElement.setAttribute("data-js", "ready");
});
