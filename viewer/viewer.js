(function () {
  "use strict";
  // Sort a table by the clicked column: numbers numerically, the rest as text.
  function sortKey(cell) {
    var t = cell.textContent.trim();
    var n = Number(t);
    return t !== "" && !isNaN(n) ? n : t.toLowerCase();
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      th.addEventListener("click", function () {
        var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = sortKey(a.cells[col]), y = sortKey(b.cells[col]);
          if (typeof x !== typeof y) { x = String(x); y = String(y); }
          return x < y ? -dir : x > y ? dir : 0;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  // Filter the transcript table by text.
  var filter = document.getElementById("filter");
  var table = document.getElementById("transcript-table");
  if (filter && table) {
    filter.addEventListener("input", function () {
      var q = filter.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.classList.toggle("hidden", q !== "" && r.textContent.toLowerCase().indexOf(q) < 0);
      });
    });
  }
  // Open the transcript a link points at.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === "DETAILS") { el.open = true; el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
})();
