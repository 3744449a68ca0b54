// hlomem/output/page_assets.hpp: written by cmake/hlomemPageAssets.cmake from
// include/hlomem/output/assets/; edit those files and run the script, not this header.
#ifndef HLOMEM_OUTPUT_PAGE_ASSETS_HPP
#define HLOMEM_OUTPUT_PAGE_ASSETS_HPP

namespace hlomem::assets {

/// include/hlomem/output/assets/timeline.css
inline constexpr char const timeline_css[] = R"hlomem_text(.k-parameter{fill:#4e79a7}.k-output{fill:#59a14f}.k-temp{fill:#f28e2b}.k-constant{fill:#9c755f}.k-thread-local{fill:#bab0ac}.k-other{fill:#b07aa1}.band{fill:#7f7f7f;fill-opacity:.45}g[class^=k-] rect{stroke:#fff;stroke-width:.4}.live{fill:#c6dbef;stroke:#2171b5;stroke-width:1}.unpadded{fill:none;stroke:#cb181d;stroke-width:1.2;stroke-dasharray:4 2}.axis{stroke:#555;stroke-width:.6}.grid{stroke:#ddd;stroke-width:.5}.sep{stroke:#fff;stroke-width:.6}.peak line{stroke:#d62728;stroke-width:1;stroke-dasharray:3 2}.peak circle{fill:#d62728}.alloc-line{stroke:#9e9e9e;stroke-width:.8;stroke-dasharray:1 2}text{font-family:sans-serif;font-size:10px;fill:#333}.title{font-size:13px;font-weight:bold}.peak text{fill:#d62728;font-weight:bold}.map-bg{fill:#f4f4f4})hlomem_text";

/// include/hlomem/output/assets/page.css
inline constexpr char const page_css[] = R"hlomem_text(body{font-family:sans-serif;margin:16px 24px;color:#222;max-width:1100px}h1{font-size:18px;margin:0 0 4px}h2{font-size:15px;margin:22px 0 4px}.summary{color:#555;font-size:13px;margin:2px 0}.legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:11px;height:11px;margin-right:4px;vertical-align:-1px}svg.timeline{width:100%;height:auto;display:block}rect.hl{stroke:#000;stroke-width:1.5;fill-opacity:1}#card{position:fixed;display:none;background:#fff;border:1px solid #888;box-shadow:0 2px 8px rgba(0,0,0,.25);padding:6px 8px;font-size:12px;max-width:560px;z-index:10;pointer-events:auto}#card th{text-align:left;color:#666;font-weight:normal;padding-right:8px;vertical-align:top}#card td{word-break:break-all}.card-title{font-weight:bold;margin-bottom:4px;word-break:break-all}.card-note{color:#999;font-size:10px;margin-top:4px}table.peak-table{border-collapse:collapse;font-size:12px;margin-top:6px;width:100%}table.peak-table th,table.peak-table td{border-bottom:1px solid #e4e4e4;padding:2px 6px;text-align:left}table.peak-table td.num{text-align:right;white-space:nowrap}table.peak-table td:nth-child(3){word-break:break-all}table.peak-table th.sortable{cursor:pointer;text-decoration:underline dotted}table.peak-table tbody tr:hover{background:#fff3cd;cursor:pointer}svg.timeline.dim rect[data-v],svg.timeline.dim rect[data-b]{fill-opacity:.15}svg.timeline.dim rect.hl-src{fill-opacity:1;stroke:#000;stroke-width:1}.source-bars{font-size:12px;margin-top:6px}.source-bar{display:flex;align-items:center;gap:8px;padding:1px 4px;cursor:default}.source-bar.on{background:#fff3cd}.source-bar .label{flex:0 0 38%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.source-bar .track{flex:1 1 auto;height:10px;background:#f0f0f0;position:relative}.source-bar .fill{position:absolute;left:0;top:0;bottom:0;min-width:1px}.source-bar .num{flex:0 0 170px;text-align:right;white-space:nowrap;color:#555}.source-rest{color:#777;padding:1px 4px})hlomem_text";

/// include/hlomem/output/assets/page.js
inline constexpr char const page_js[] = R"hlomem_text((function () {
  'use strict';
  var started = performance.now();
  var body = document.body;
  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  data.values.forEach(function (v) {  // sizes left out of the data equal the assigned size
    if (v.padded === undefined) v.padded = v.size;
    if (v.unpadded === undefined) v.unpadded = v.size;
  });
  var card = document.getElementById('card');
  var pinned = false;

  function human(b) {  // XLA's HumanReadableNumBytes, as hlomem::human_bytes
    if (b < 1024) return b + 'B';
    var units = 'KMGTPE', u = 0, v = b;
    while (v >= 1048576) { v = Math.floor(v / 1024); ++u; }
    return (v / 1024).toFixed(u === 0 ? 1 : 2) + units[u] + 'iB';
  }
  function exact(b) { return b.toLocaleString('en-US') + ' bytes (' + human(b) + ')'; }
  function allocText(i) {
    var a = data.allocations[i];
    return 'allocation ' + a.i + ' (' + a.kind + (a.parameter !== undefined ? ' ' + a.parameter : '') + ', ' + human(a.size) + ')';
  }
  function row(table, label, text) {
    var tr = table.insertRow(), th = document.createElement('th'), td = tr.insertCell();
    th.textContent = label; tr.insertBefore(th, td); td.textContent = text;
  }
  function fill(title, rows) {
    card.textContent = '';
    var h = document.createElement('div'); h.className = 'card-title'; h.textContent = title; card.appendChild(h);
    var t = document.createElement('table'); card.appendChild(t);
    rows.forEach(function (r) { if (r[1] !== null && r[1] !== undefined) row(t, r[0], r[1]); });
    var note = document.createElement('div'); note.className = 'card-note';
    note.textContent = pinned ? 'pinned: click anywhere else to release' : 'click to pin'; card.appendChild(note);
  }
  // A value's Python stack, outermost frame first, from its innermost frame in data.frames.
  function stackText(f) {
    var labels = [];
    for (var n = 0; f !== null && f !== undefined && n < data.frames.length; ++n) { labels.unshift(data.frames[f].label); f = data.frames[f].parent; }
    return labels.join(' \u203a ');
  }
  // The text of the page's source line `src` (`--source-root`), null where its file was not found.
  function sourceText(src) { return data.source_text && data.source_text[src] !== null && data.source_text[src] !== undefined ? data.source_text[src] : null; }
  function valueCard(k) {
    var v = data.values[k];
    var padding = v.padded !== null && v.unpadded !== null ? v.padded - v.unpadded : null;
    fill('value ' + v.id + ': ' + v.name, [
      ['shape', v.shape === null ? '?' : data.shapes[v.shape]],
      ['assigned', exact(v.size)],
      ['padded', v.padded === null ? 'tuple: a table of pointers' : exact(v.padded)],
      ['unpadded', v.unpadded === null ? null : exact(v.unpadded)],
      ['padding', padding === null ? null : padding === 0 ? 'none' : exact(padding) + (v.unpadded > 0 ? ', ' + (v.padded / v.unpadded).toFixed(2) + 'x the unpadded size' : '')],
      ['allocation', allocText(v.alloc) + ', offset ' + v.offset.toLocaleString('en-US')],
      ['live', v.start + '-' + v.end + ' (from ' + (v.first || v.name.replace(/\{[0-9,]*\}$/, '')) + ' to ' + v.last + ')'],
      ['instruction', v.opcode || null],
      ['op_name', v.op_name || null],
      ['op_type', v.op_type || null],
      ['source', v.source_file ? v.source_file + (v.source_line ? ':' + v.source_line : '') : null],
      ['origin', v.origin || null],
      ['code', sourceText(v.src)],
      ['stack', v.frame === undefined ? null : stackText(v.frame)]
    ]);
  }
  function bandCard(k) {
    var b = data.bands[k];
    var where = b.first_alloc === b.last_alloc
      ? allocText(b.first_alloc) + ', offsets ' + b.offset.toLocaleString('en-US') + '-' + (b.offset + b.height).toLocaleString('en-US')
      : 'allocations ' + data.allocations[b.first_alloc].i + ' to ' + data.allocations[b.last_alloc].i + ', ' + human(b.height) + ' of the stacked map';
    fill(b.values + ' small values, aggregated', [
      ['bytes', exact(b.bytes) + ' in all'],
      ['largest', exact(b.largest)],
      ['where', where],
      ['live', b.start + '-' + b.end]
    ]);
  }
  function place(e) {
    var x = e.clientX + 14, y = e.clientY + 14;
    card.style.display = 'block';
    if (x + card.offsetWidth > window.innerWidth) x = Math.max(0, e.clientX - card.offsetWidth - 14);
    if (y + card.offsetHeight > window.innerHeight) y = Math.max(0, e.clientY - card.offsetHeight - 14);
    card.style.left = x + 'px'; card.style.top = y + 'px';
  }
  var highlighted = null;
  function highlight(el) {
    if (highlighted) highlighted.classList.remove('hl');
    highlighted = el; if (el) el.classList.add('hl');
  }
  function show(target, e) {
    if (target.hasAttribute('data-v')) valueCard(+target.getAttribute('data-v'));
    else bandCard(+target.getAttribute('data-b'));
    highlight(target); place(e);
  }
  document.querySelectorAll('svg.timeline').forEach(function (svg) {
    svg.addEventListener('mousemove', function (e) {
      if (pinned) return;
      var t = e.target;
      if (t.hasAttribute && (t.hasAttribute('data-v') || t.hasAttribute('data-b'))) show(t, e);
      else { card.style.display = 'none'; highlight(null); }
    });
    svg.addEventListener('mouseleave', function () { if (!pinned) { card.style.display = 'none'; highlight(null); } });
  });
  document.addEventListener('click', function (e) {
    var t = e.target;
    if (t.hasAttribute && (t.hasAttribute('data-v') || t.hasAttribute('data-b'))) { pinned = true; show(t, e); return; }
    var tr = t.closest ? t.closest('tr[data-k]') : null;
    if (tr) { pinned = true; rowCard(tr, e); return; }
    if (!card.contains(t)) { pinned = false; card.style.display = 'none'; highlight(null); }
  });

  // The largest values at each peak: one table per color, sortable by its column headers.
  var columns = [
    ['#', function (v, r) { return r; }, null],
    ['value', function (v) { return v.name; }, null],
    ['shape', function (v) { return v.shape === null ? '?' : data.shapes[v.shape]; }, null],
    ['size', function (v) { return v.size; }, human],
    ['unpadded', function (v) { return v.unpadded === null ? -1 : v.unpadded; }, function (x) { return x < 0 ? '-' : human(x); }],
    ['padding', function (v) { return v.padded === null || v.unpadded === null ? 0 : v.padded - v.unpadded; }, human],
    ['live (program order)', function (v) { return v.start; }, null],
    ['allocation', function (v) { return v.alloc; }, null]
  ];
  var tableRows = 0;
  function rowCard(tr, e) { valueCard(+tr.getAttribute('data-k')); highlight(document.querySelector('rect[data-v="' + tr.getAttribute('data-k') + '"]')); place(e); }
  document.querySelectorAll('table.peak-table').forEach(function (table) {
    var color = data.colors[+table.getAttribute('data-color-index')];
    var head = table.createTHead().insertRow();
    var state = { column: 3, descending: true };
    columns.forEach(function (c, i) {
      var th = document.createElement('th'); th.textContent = c[0];
      if (i === 0 || i === 3 || i === 4 || i === 5 || i === 6) {
        th.className = 'sortable';
        th.addEventListener('click', function () {
          state.descending = state.column === i ? !state.descending : i !== 6 && i !== 0;
          state.column = i; draw();
        });
      }
      head.appendChild(th);
    });
    var tbody = table.createTBody();
    var entries = color.at_peak.map(function (k, r) { return { k: k, rank: r + 1 }; });
    tableRows += entries.length;
    function draw() {
      var key = columns[state.column][1];
      entries.sort(function (a, b) {
        var x = key(data.values[a.k], a.rank), y = key(data.values[b.k], b.rank);
        var d = x < y ? -1 : x > y ? 1 : 0;
        return d === 0 ? a.rank - b.rank : state.descending ? -d : d;  // ties keep the order by size
      });
      tbody.textContent = '';
      entries.forEach(function (en) {
        var v = data.values[en.k], tr = tbody.insertRow();
        tr.setAttribute('data-k', en.k);
        columns.forEach(function (c, i) {
          var x = c[1](v, en.rank), td = tr.insertCell();
          td.textContent = i === 7 ? allocText(x) : i === 6 ? v.start + '-' + v.end : c[2] ? c[2](x) : x;
          if (i >= 3 && i <= 5) td.className = 'num';
        });
        tr.addEventListener('mouseenter', function () { highlight(document.querySelector('rect[data-v="' + en.k + '"]')); });
      });
      head.querySelectorAll('th').forEach(function (th, i) {
        th.setAttribute('aria-sort', i === state.column ? (state.descending ? 'descending' : 'ascending') : 'none');
      });
    }
    draw();
  });

  // What holds each peak, by source line: a bar per line, largest first (the first 30, then the
  // rest in one line). Hovering a bar highlights the buffers of that line in the map above and
  // dims the others; <body data-highlighted> lists their value ids.
  var sourceRows = 0, shownLines = 30;
  function hue(src) { return (src * 137.508) % 360; }  // the golden angle: lines far apart in hue
  function noSource(src) { return data.sources[src] === 'no source'; }
  function lineColor(src, lightness) { return noSource(src) ? 'hsl(0,0%,' + lightness + '%)' : 'hsl(' + hue(src).toFixed(1) + ',65%,' + lightness + '%)'; }
  function highlightLine(svg, line) {
    svg.querySelectorAll('rect.hl-src').forEach(function (r) { r.classList.remove('hl-src'); });
    svg.classList.toggle('dim', !!line);
    var ids = [];
    if (line) {
      line.values.forEach(function (k) {
        var r = svg.querySelector('rect[data-v="' + k + '"]');
        if (r) { r.classList.add('hl-src'); ids.push(data.values[k].id); }
      });
    }
    ids.sort(function (a, b) { return a - b; });
    body.setAttribute('data-highlighted', ids.join(' '));
  }
  document.querySelectorAll('div.source-bars').forEach(function (div) {
    var color = data.colors[+div.getAttribute('data-color-index')];
    var svg = document.querySelector('svg.timeline[data-color="' + color.color + '"]');
    var total = 0, restBytes = 0, restLines = 0;
    color.by_source.forEach(function (line, rank) {
      total += line.bytes;
      if (rank >= shownLines) { restBytes += line.bytes; ++restLines; return; }
      var bar = document.createElement('div'); bar.className = 'source-bar';
      bar.setAttribute('data-rank', rank); bar.setAttribute('data-src', line.src);
      var label = document.createElement('span'); label.className = 'label'; label.textContent = data.sources[line.src];
      label.title = data.sources[line.src] + (sourceText(line.src) === null ? '' : '\n' + sourceText(line.src));
      var track = document.createElement('span'); track.className = 'track';
      var fill = document.createElement('span'); fill.className = 'fill';
      fill.style.width = (color.peak_bytes > 0 ? 100 * line.bytes / color.peak_bytes : 0).toFixed(2) + '%';
      fill.style.background = lineColor(line.src, 50);
      track.appendChild(fill);
      var num = document.createElement('span'); num.className = 'num';
      num.textContent = human(line.bytes) + ' ' + (color.peak_bytes > 0 ? (100 * line.bytes / color.peak_bytes).toFixed(1) : '0.0') + '% ' +
        line.count + (line.count === 1 ? ' value' : ' values');
      bar.appendChild(label); bar.appendChild(track); bar.appendChild(num);
      bar.addEventListener('mouseenter', function () { bar.classList.add('on'); highlightLine(svg, line); });
      bar.addEventListener('mouseleave', function () { bar.classList.remove('on'); highlightLine(svg, null); });
      div.appendChild(bar);
      ++sourceRows;
    });
    if (restLines > 0) {
      var rest = document.createElement('div'); rest.className = 'source-rest';
      rest.textContent = human(restBytes) + ' in ' + restLines + ' more lines';
      div.appendChild(rest);
    }
    if (total !== color.peak_bytes) window.hlomemErrors.push('color ' + color.color + ': the source lines hold ' + total + ' bytes of a peak of ' + color.peak_bytes);
  });

  // The buffers colored by source line: a hue per line, a lightness per value within it.
  var byLine = data.values.map(function () { return 0; }), seen = {};
  data.values.forEach(function (v, k) { seen[v.src] = (seen[v.src] || 0) + 1; byLine[k] = seen[v.src] - 1; });
  function colorBySource(on) {
    document.querySelectorAll('svg.timeline rect[data-v]').forEach(function (r) {
      var k = +r.getAttribute('data-v');
      r.style.fill = on ? lineColor(data.values[k].src, 36 + (byLine[k] * 13) % 36) : '';
    });
    body.setAttribute('data-colored-by', on ? 'source' : 'kind');
  }
  var toggle = document.getElementById('by-source');
  if (toggle) toggle.addEventListener('change', function () { colorBySource(toggle.checked); });
  body.setAttribute('data-colored-by', 'kind');

  // page.html#source=C:R hovers bar R of color panel C (the page tests' way to move the mouse);
  // page.html#color=source colors the buffers by source line; #color=source&source=C:R does both.
  function sourceFromHash() {
    var m = /^#(?:color=source&)?source=(\d+):(\d+)$/.exec(window.location.hash);
    if (m) {
      var bar = document.querySelector('div.source-bars[data-color-index="' + m[1] + '"] div.source-bar[data-rank="' + m[2] + '"]');
      if (!bar) { window.hlomemErrors.push('no source line ' + m[2] + ' in color panel ' + m[1]); return; }
      bar.dispatchEvent(new MouseEvent('mouseenter'));
    }
    if (/^#color=source(&|$)/.test(window.location.hash)) {
      if (toggle) toggle.checked = true;
      colorBySource(true);
    }
  }

  // page.html#value=ID opens the card of value ID, pinned beside its rectangle: a link to a buffer.
  function openFromHash() {
    var m = /^#value=(\d+)$/.exec(window.location.hash);
    if (!m) return;
    var k = -1;
    data.values.forEach(function (v, i) { if (v.id === +m[1]) k = i; });
    if (k < 0) { window.hlomemErrors.push('no value ' + m[1] + ' in this page'); return; }
    var target = document.querySelector('rect[data-v="' + k + '"]');
    var box = target ? target.getBoundingClientRect() : { right: 20, bottom: 20 };
    pinned = true; valueCard(k); highlight(target);
    place({ clientX: box.right, clientY: box.bottom });
    body.setAttribute('data-card', data.values[k].name);
  }
  openFromHash();
  sourceFromHash();
  window.addEventListener('hashchange', function () { pinned = false; openFromHash(); sourceFromHash(); });

  // What the page drew, checked against its data.
  var problems = [];
  var drawn = 0, peaks = [];
  data.colors.forEach(function (c) {
    var svg = document.querySelector('svg.timeline[data-color="' + c.color + '"]');
    if (!svg) { problems.push('color ' + c.color + ' has no picture'); return; }
    var n = svg.querySelectorAll('rect[data-v]').length;
    if (n !== c.drawn) problems.push('color ' + c.color + ': ' + n + ' rectangles for ' + c.drawn + ' values');
    drawn += n;
    var marker = svg.querySelector('g.peak');
    var peak = marker ? marker.getAttribute('data-peak-bytes') : 'none';
    if (peak !== String(c.peak_bytes)) problems.push('color ' + c.color + ': the marker shows ' + peak + ', the data ' + c.peak_bytes);
    peaks.push(c.color + ':' + peak);
  });
  body.setAttribute('data-rendered', String(drawn));
  body.setAttribute('data-bands', String(document.querySelectorAll('svg.timeline rect[data-b]').length));
  body.setAttribute('data-peak-bytes', peaks.join(' '));
  body.setAttribute('data-table-rows', String(tableRows));
  body.setAttribute('data-source-rows', String(sourceRows));
  window.hlomemErrors = window.hlomemErrors.concat(problems);
  body.setAttribute('data-errors', window.hlomemErrors.join('; '));
  body.setAttribute('data-script-ms', String(Math.round(performance.now() - started)));
})();
)hlomem_text";

/// include/hlomem/output/assets/diff.css
inline constexpr char const diff_css[] = R"hlomem_text(.verdict{font-size:14px;margin:8px 0 12px;padding:6px 10px;background:#f4f6fb;border-left:4px solid #4a6fb5}.verdict div{margin:2px 0}.sides{display:flex;gap:12px}.sides>div{flex:1;min-width:0}.sides h3{font-size:13px;margin:6px 0 2px;word-break:break-all}table.deltas{border-collapse:collapse;font-size:12px;margin-top:6px}table.deltas th,table.deltas td{border-bottom:1px solid #e4e4e4;padding:2px 8px;text-align:right;white-space:nowrap}table.deltas th:first-child,table.deltas td:first-child{text-align:left;white-space:normal;word-break:break-all}td.grew{color:#b3261e}td.shrank{color:#1e7b34})hlomem_text";

/// include/hlomem/output/assets/diff.js
inline constexpr char const diff_js[] = R"hlomem_text((function () {
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
)hlomem_text";

/// include/hlomem/output/assets/whatif.css
inline constexpr char const whatif_css[] = R"hlomem_text(.before{fill:none;stroke:#444;stroke-width:1.2;stroke-dasharray:5 3}.budget{stroke:#b3261e;stroke-width:1.2;stroke-dasharray:8 3;fill:none}text.budget{fill:#b3261e;stroke:none}.peak-before line{stroke:#444}.peak-before circle{fill:#444}.peak-before text{fill:#444}.mark rect{fill:#59a14f;fill-opacity:.55}.mark rect.span{fill-opacity:.12}.mark-remat rect{fill:#f28e2b}.mark-offload rect{fill:#b07aa1}table.edits{border-collapse:collapse;font-size:12px;margin-top:6px}table.edits th,table.edits td{border-bottom:1px solid #e4e4e4;padding:2px 8px;text-align:left})hlomem_text";

/// include/hlomem/output/assets/whatif.js
inline constexpr char const whatif_js[] = R"hlomem_text((function () {
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
)hlomem_text";

}  // namespace hlomem::assets

#endif  // HLOMEM_OUTPUT_PAGE_ASSETS_HPP
