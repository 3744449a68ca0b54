/* page.js: the script of the timeline page (-o OUT.html): the hover card of each buffer, the
   sortable tables of the largest values at each peak, what holds each peak by source line (a bar
   per line; hovering one highlights its buffers in the map), the buffers colored by source line
   on request, #value=ID links, and the report of what was drawn on <body> (data-rendered,
   data-peak-bytes, data-table-rows, data-source-rows, data-highlighted, data-errors, ...), which
   the page tests read. Plain JavaScript, no library; the data comes from the JSON in
   <script id="timeline-data">. Embedded into ../page_assets.hpp by cmake/hlomemPageAssets.cmake. */
(function () {
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
