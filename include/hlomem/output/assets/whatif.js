/* whatif.js: the script of the page before and after edits (hlomem whatif/advise --page OUT.html).
   The page is complete without it; the script reports what was drawn on <body>, for the page
   tests: data-peak-bytes (each color's peak markers, "before0:BYTES after0:BYTES ..."), data-marks
   (the edited values marked, "offload fft.8.0 ...") and data-errors, where a marker that
   disagrees with its section's figures is one. Embedded into ../page_assets.hpp by cmake/hlomemPageAssets.cmake. */
(function () {
  'use strict';
  var body = document.body;
  var peaks = [], marks = [], problems = [];
  document.querySelectorAll('section[data-color]').forEach(function (s) {
    ['before', 'after'].forEach(function (curve) {
      var marker = s.querySelector('g.peak[data-curve="' + curve + '"]');
      if (!marker) return problems.push('color ' + s.getAttribute('data-color') + ' has no ' + curve + ' peak');
      var bytes = marker.getAttribute('data-peak-bytes');
      peaks.push(curve + marker.getAttribute('data-color') + ':' + bytes);
      if (bytes !== s.getAttribute('data-' + curve + '-peak')) problems.push('color ' + s.getAttribute('data-color') + ': the ' + curve + ' marker says ' + bytes);
    });
    s.querySelectorAll('g.mark').forEach(function (m) { marks.push(m.getAttribute('data-kind') + ' ' + m.getAttribute('data-name')); });
  });
  body.setAttribute('data-peak-bytes', peaks.join(' '));
  body.setAttribute('data-marks', marks.join(' '));
  window.hlomemErrors = window.hlomemErrors.concat(problems);
  body.setAttribute('data-errors', window.hlomemErrors.join('; '));
})();
