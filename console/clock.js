// The emulator's clock in the header: its current time (ticking locally
// between polls of GET /_localdynamo/clock), shifting it, running a TTL
// sweep now, and resetting to the preloaded models. Views read now() for TTL
// countdowns and are told to refresh after anything here changes data.

import {admin} from './api.js';
import {formatDuration, formatTime, h} from './util.js';

let offsetFromBrowser = 0;  // emulator time minus the browser's, in ms
let emulatorOffset = 0;     // how far the emulator's clock is shifted
let onDataChanged = () => {};
let statusNode;
let timeNode;

// The emulator's current time in epoch milliseconds.
export function now() {
  return Date.now() + offsetFromBrowser;
}

async function refreshClock() {
  try {
    const clock = await admin('clock');
    offsetFromBrowser = clock.NowMillis - Date.now();
    emulatorOffset = clock.OffsetMillis;
  } catch (error) {
    status(`Clock: ${error.message}`, true);
  }
  render();
}

function render() {
  const shift = emulatorOffset === 0 ? ''
      : ` (${emulatorOffset > 0 ? '+' : '−'}${formatDuration(emulatorOffset / 1000)})`;
  timeNode.textContent = formatTime(now()) + shift;
}

export function status(text, isError = false) {
  statusNode.textContent = text;
  statusNode.className = isError ? 'status error' : 'status';
}

async function act(description, work) {
  try {
    const message = await work();
    status(message ?? description);
    await refreshClock();
    onDataChanged();
  } catch (error) {
    status(`${description} failed: ${error.message}`, true);
  }
}

const shift = (seconds) => act(`Clock moved by ${formatDuration(seconds)}`,
                                () => admin('clock', {AdvanceSeconds: seconds}).then(() => {}));

async function sweep() {
  const result = await admin('sweep', {});
  return `TTL sweep deleted ${result.DeletedCount} expired item(s)`;
}

async function resetModels() {
  if (!confirm('Reset every table to the preloaded models? Changes are lost.')) return 'Reset cancelled';
  await admin('reset', {});
  return 'Reset to the preloaded models';
}

// Builds the panel; `dataChanged` is called after a sweep, a shift or a reset.
export function clockPanel(dataChanged) {
  onDataChanged = dataChanged;
  timeNode = h('output', {id: 'emulator-time', 'aria-live': 'off'});
  statusNode = h('output', {class: 'status', id: 'status', role: 'status'});
  const seconds = h('input', {type: 'number', id: 'shift-seconds', value: '3600', step: '1',
                              'aria-label': 'Seconds to shift the clock by'});
  const panel = h('div', {class: 'clock'},
    h('span', {class: 'clock-label'}, 'Emulator time '), timeNode,
    h('button', {onclick: () => shift(60)}, '+1 min'),
    h('button', {onclick: () => shift(3600)}, '+1 hour'),
    h('button', {onclick: () => shift(86400)}, '+1 day'),
    seconds,
    h('button', {onclick: () => shift(Number(seconds.value))}, 'Shift clock'),
    h('button', {onclick: () => act('Clock reset', () => admin('clock', {Reset: true}).then(() => {}))},
      'Reset clock'),
    h('button', {onclick: () => act('Sweep', sweep)}, 'Sweep TTL now'),
    h('button', {onclick: () => act('Reset', resetModels)}, 'Reset to models'));
  refreshClock();
  setInterval(render, 1000);
  setInterval(refreshClock, 10000);  // others may move the clock too
  return [panel, statusNode];
}
