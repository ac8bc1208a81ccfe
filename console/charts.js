// Charts drawn by hand as inline SVG (no chart library to vendor or
// fetch): stacked bars over time, and horizontal stacked bars with a label
// per row. Every chart is one <svg role="img"> whose aria-label says in
// words what it shows; each bar has a <title> with its exact figures, shown
// on hover. Colours come from CSS classes (console.css), so the charts
// follow the console's palette.

import {appendChildren} from './util.js';

const kSvg = 'http://www.w3.org/2000/svg';

// s('rect', {x: 1}, child…) -> SVG element.
export function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(kSvg, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) element.setAttribute(name, value);
  }
  return appendChildren(element, children);
}

// The number as a short text: 3, 0.5, 12.3k.
export function shortNumber(value) {
  if (value >= 1e6) return `${+(value / 1e6).toFixed(1)}M`;
  if (value >= 1e4) return `${+(value / 1e3).toFixed(1)}k`;
  return String(+value.toFixed(value < 10 ? 2 : 1));
}

// Cuts `text` to about `width` pixels at `charWidth` pixels a character.
function fit(text, width, charWidth) {
  const most = Math.max(4, Math.floor(width / charWidth));
  return text.length <= most ? text : `${text.slice(0, most - 1)}…`;
}

const clockText = (second) => new Date(second * 1000).toISOString().slice(11, 19);

// Units per second of several series (tables): reads stacked above the
// middle line, writes below it, each half on its own scale (writes cost
// more units than reads of the same bytes). `series`: [{name, colour (a
// class suffix), points: [{Second, ReadUnits, WriteUnits}]}].
//
// The time axis is continuous, at least a minute wide, so a burst of two
// seconds is not drawn as two fat bars; when the seconds with traffic
// spread over more than 20 minutes, idle stretches are left out (the
// seconds are drawn side by side) and the chart says so.
export function timelineChart(series, {label}) {
  const width = 960, height = 230, left = 64, right = 12, top = 16, bottom = 30;
  const plotWidth = width - left - right, half = (height - top - bottom) / 2;
  const middle = top + half;
  const seconds = [...new Set(series.flatMap((t) => t.points.map((p) => p.Second)))].sort((a, b) => a - b);
  const chart = s('svg', {class: 'chart timeline', viewBox: `0 0 ${width} ${height}`, role: 'img',
                          'aria-label': label});
  if (seconds.length === 0) {
    chart.append(s('text', {x: width / 2, y: middle, 'text-anchor': 'middle', class: 'chart-empty'},
                   'No traffic yet'));
    return chart;
  }
  const first = seconds[0], last = seconds[seconds.length - 1];
  const compressed = last - first + 1 > 1200;
  const slots = compressed ? seconds.length : Math.max(last - first + 1, 60);
  const slotOf = compressed ? new Map(seconds.map((second, i) => [second, i])) : null;
  const x = (second) => left + (compressed ? slotOf.get(second) : second - first) * (plotWidth / slots);
  const barWidth = Math.max(1.5, Math.min(28, plotWidth / slots - 1));

  const totals = new Map(seconds.map((second) => [second, {read: 0, write: 0}]));
  for (const table of series) {
    for (const p of table.points) {
      totals.get(p.Second).read += p.ReadUnits;
      totals.get(p.Second).write += p.WriteUnits;
    }
  }
  const peakRead = Math.max(...[...totals.values()].map((t) => t.read), 0);
  const peakWrite = Math.max(...[...totals.values()].map((t) => t.write), 0);
  const scaleRead = peakRead ? half / peakRead : 0, scaleWrite = peakWrite ? half / peakWrite : 0;

  // Gridlines and the axes' labels.
  chart.append(
    s('line', {x1: left, x2: width - right, y1: top, y2: top, class: 'grid-line'}),
    s('line', {x1: left, x2: width - right, y1: top + 2 * half, y2: top + 2 * half, class: 'grid-line'}),
    s('text', {x: left - 6, y: top + 4, 'text-anchor': 'end', class: 'axis'},
      `${shortNumber(peakRead)} read`),
    s('text', {x: left - 6, y: middle + 4, 'text-anchor': 'end', class: 'axis'}, '0'),
    s('text', {x: left - 6, y: top + 2 * half + 4, 'text-anchor': 'end', class: 'axis'},
      `${shortNumber(peakWrite)} write`));
  const ticks = compressed ? [first, last] : [first, first + Math.round(slots / 2), first + slots - 1];
  ticks.forEach((second, i) => chart.append(s('text', {
    x: compressed ? (i ? width - right : left) : x(second) + barWidth / 2, y: height - 8,
    'text-anchor': i === 0 ? 'start' : i === ticks.length - 1 ? 'end' : 'middle', class: 'axis'},
    `${clockText(second)} UTC`)));
  if (compressed) {
    chart.append(s('text', {x: left + plotWidth / 2, y: height - 8, 'text-anchor': 'middle', class: 'axis'},
                   'idle seconds left out'));
  }

  // The bars, stacked per second in the order of `series`.
  const bars = s('g', {class: 'bars'});
  const stacked = new Map(seconds.map((second) => [second, {read: 0, write: 0}]));
  for (const table of series) {
    for (const p of table.points) {
      const done = stacked.get(p.Second);
      const tip = `${table.name}, ${clockText(p.Second)} UTC: ${shortNumber(p.ReadUnits)} read units, ` +
                  `${shortNumber(p.WriteUnits)} write units`;
      if (p.ReadUnits > 0) {
        const h = Math.max(1, p.ReadUnits * scaleRead);
        bars.append(s('rect', {x: x(p.Second), y: middle - done.read - h, width: barWidth, height: h,
                               class: `bar up series-${table.colour}`}, s('title', {}, tip)));
        done.read += h;
      }
      if (p.WriteUnits > 0) {
        const h = Math.max(1, p.WriteUnits * scaleWrite);
        bars.append(s('rect', {x: x(p.Second), y: middle + done.write, width: barWidth, height: h,
                               class: `bar down series-${table.colour}`}, s('title', {}, tip)));
        done.write += h;
      }
    }
  }
  chart.append(bars, s('line', {x1: left, x2: width - right, y1: middle, y2: middle, class: 'axis-line'}));
  return chart;
}

// Horizontal stacked bars, one row each: `rows` = [{title, subtitle
// (monospace, optional), detail (a third, smaller line, optional),
// segments: [{value, kind (a class suffix), name}], note (the figures, right
// of the bar), highlight}], all on one scale.
export function barChart(rows, {label, labelWidth = 300}) {
  const lines = rows.some((r) => r.detail) ? 3 : rows.some((r) => r.subtitle) ? 2 : 1;
  const width = 960, rowHeight = [0, 28, 40, 56][lines], top = 6;
  const noteWidth = 250, barLeft = labelWidth + 12, barWidth = width - barLeft - noteWidth - 12;
  const height = top + Math.max(1, rows.length) * rowHeight;
  const chart = s('svg', {class: 'chart bars', viewBox: `0 0 ${width} ${height}`, role: 'img',
                          'aria-label': label});
  if (rows.length === 0) {
    chart.append(s('text', {x: width / 2, y: top + 18, 'text-anchor': 'middle', class: 'chart-empty'},
                   'Nothing yet'));
    return chart;
  }
  const most = Math.max(...rows.map((r) => r.segments.reduce((sum, g) => sum + g.value, 0)), 0);
  const scale = most ? barWidth / most : 0;
  rows.forEach((row, i) => {
    const y = top + i * rowHeight;
    const group = s('g', {class: row.highlight ? 'row highlight' : 'row'},
      s('title', {}, [row.title, row.subtitle, row.detail, row.note].filter(Boolean).join('\n')));
    if (row.highlight) {
      group.append(s('rect', {x: 0, y, width, height: rowHeight - 2, class: 'row-highlight'}));
    }
    const textY = lines > 1 ? y + 15 : y + rowHeight / 2 + 4;
    group.append(s('text', {x: 4, y: textY, class: 'row-title'}, fit(row.title, labelWidth, 7.4)));
    if (row.subtitle) {
      group.append(s('text', {x: 4, y: y + 31, class: 'row-subtitle'}, fit(row.subtitle, labelWidth, 6.7)));
    }
    if (row.detail) {
      group.append(s('text', {x: 4, y: y + 46, class: 'row-detail'}, fit(row.detail, labelWidth, 6.2)));
    }
    let offset = 0;
    for (const segment of row.segments) {
      if (segment.value <= 0) continue;
      const w = Math.max(1.5, segment.value * scale);
      group.append(s('rect', {x: barLeft + offset, y: y + rowHeight / 2 - 8, width: w, height: 14,
                              class: `bar ${segment.kind}`},
                     s('title', {}, `${segment.name}: ${shortNumber(segment.value)}`)));
      offset += w;
    }
    group.append(s('text', {x: barLeft + offset + 6, y: y + rowHeight / 2 + 3, class: 'row-note'},
                   row.note ?? ''));
    chart.append(group);
  });
  return chart;
}
