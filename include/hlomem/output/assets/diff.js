/* diff.js: the script of the diff page (hlomem diff -o OUT.html). The page is complete without
   it (each buffer carries its <title>); the script reports what was drawn on <body>, for the page
   tests: data-rendered (buffer rectangles), data-peak-bytes (each side's peak markers, as
   "a0:BYTES b0:BYTES ..."), data-delta-rows (rows of the delta tables) and data-errors.
   Hovering a buffer outlines it. Embedded into ../page_assets.hpp by cmake/hlomemPageAssets.cmake. */
(function () {
  'use strict';
  var body = document.body;
  var rendered = 0;
  document.querySelectorAll('svg.timeline rect').forEach(function (r) {
    if (r.querySelector('title') && !r.closest('g.band')) ++rendered;
  });
  var peaks = [];
  document.querySelectorAll('svg.timeline').forEach(function (svg) {
    var marker = svg.querySelector('g.peak');
    if (marker) peaks.push(svg.getAttribute('data-side') + marker.getAttribute('data-color') + ':' + marker.getAttribute('data-peak-bytes'));
  });
  var problems = [];
  document.querySelectorAll('section[data-color]').forEach(function (s) {
    var expected = s.getAttribute('data-peak-delta');
    var a = s.querySelector('svg[data-side="a"] g.peak'), b = s.querySelector('svg[data-side="b"] g.peak');
    if (a && b && expected !== null) {
      var delta = Number(b.getAttribute('data-peak-bytes')) - Number(a.getAttribute('data-peak-bytes'));
      if (String(delta) !== expected) problems.push('color ' + s.getAttribute('data-color') + ': the markers differ by ' + delta + ', the table says ' + expected);
    }
  });
  var highlighted = null;
  document.addEventListener('mouseover', function (e) {
    var r = e.target.closest ? e.target.closest('svg.timeline rect') : null;
    if (highlighted) highlighted.classList.remove('hl');
    highlighted = r && r.querySelector('title') ? r : null;
    if (highlighted) highlighted.classList.add('hl');
  });
  body.setAttribute('data-rendered', String(rendered));
  body.setAttribute('data-peak-bytes', peaks.join(' '));
  body.setAttribute('data-delta-rows', String(document.querySelectorAll('table.deltas tbody tr').length));
  window.hlomemErrors = window.hlomemErrors.concat(problems);
  body.setAttribute('data-errors', window.hlomemErrors.join('; '));
})();
