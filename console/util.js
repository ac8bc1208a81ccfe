// Small helpers shared by the views: building DOM nodes, formatting, and
// converting items between DynamoDB JSON and plain JSON.

// h('button', {class: 'x', onclick: f}, 'text', child…) -> element.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name === 'value') element.value = value;
    else element.setAttribute(name, value === true ? '' : value);
  }
  return appendChildren(element, children);
}

// Appends nodes and texts (nested lists flattened; null, undefined and false
// skipped) to `element`, and returns it: h()'s and the charts' s()'s children.
export function appendChildren(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

// A label wrapping its control, so screen readers and tests find it by name.
export function field(label, control) {
  return h('label', {class: 'field'}, h('span', {}, label), control);
}

export function select(options, value, attributes = {}) {
  return h('select', attributes, options.map(([v, text]) =>
    h('option', {value: v, selected: v === value}, text ?? v)));
}

export function formatBytes(bytes) {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

// "3d 4h", "2h 5m", "4m 10s", "12s".
export function formatDuration(seconds) {
  const s = Math.floor(Math.abs(seconds));
  const days = Math.floor(s / 86400), hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60), secs = s % 60;
  if (days) return `${days}d ${hours}h`;
  if (hours) return `${hours}h ${minutes}m`;
  if (minutes) return `${minutes}m ${secs}s`;
  return `${secs}s`;
}

export function formatTime(millis) {
  return new Date(millis).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function keySchemaText(keySchema, definitions = []) {
  const typeOf = (name) => definitions.find((d) => d.AttributeName === name)?.AttributeType;
  return keySchema.map((k) => `${k.AttributeName} (${typeOf(k.AttributeName) ?? '?'}, ` +
                              `${k.KeyType === 'HASH' ? 'partition' : 'sort'})`).join(', ');
}

// ---- DynamoDB JSON <-> plain JSON ----

const kNumber = Symbol('number');

// One attribute value as a short text for a table cell.
export function cellText(value) {
  if (value === undefined) return '';
  const [type, v] = Object.entries(value)[0];
  switch (type) {
    case 'S': case 'N': return v;
    case 'B': return `<binary ${v.length} b64>`;
    case 'BOOL': return String(v);
    case 'NULL': return 'null';
    case 'SS': case 'NS': return `{${v.join(', ')}}`;
    case 'BS': return `{${v.length} binary}`;
    default: return plainJson(value, 0);
  }
}

// An attribute value (or a whole item, given as {M: item}) as plain JSON
// text, numbers written as DynamoDB holds them (exact, never rounded).
export function plainJson(value, indent = 2) {
  return writePlain(value, indent, '');
}

function writePlain(value, indent, pad) {
  const [type, v] = Object.entries(value)[0];
  const inner = pad + ' '.repeat(indent);
  const newline = indent ? '\n' : '';
  const list = (items) => items.length === 0 ? '[]'
      : `[${newline}${items.map((x) => inner + x).join(`,${newline}`)}${newline}${pad}]`;
  switch (type) {
    case 'S': case 'B': return JSON.stringify(v);
    case 'N': return v;
    case 'BOOL': return String(v);
    case 'NULL': return 'null';
    case 'SS': case 'BS': return list(v.map((x) => JSON.stringify(x)));
    case 'NS': return list(v);
    case 'L': return list(v.map((x) => writePlain(x, indent, inner)));
    case 'M': {
      const entries = Object.entries(v);
      if (entries.length === 0) return '{}';
      const sep = indent ? ': ' : ':';
      return `{${newline}${entries.map(([k, x]) =>
        `${inner}${JSON.stringify(k)}${sep}${writePlain(x, indent, inner)}`).join(`,${newline}`)}` +
        `${newline}${pad}}`;
    }
  }
  throw new Error(`unknown attribute type ${type}`);
}

// Parses plain JSON text into an item. Numbers keep their exact text
// (where the browser exposes it); `original` supplies the types plain JSON
// cannot say — sets and binary — for the top-level attributes it has.
export function itemFromPlain(text, original = {}) {
  const parsed = JSON.parse(text, (key, value, context) =>
    typeof value === 'number' ? {[kNumber]: context?.source ?? String(value)} : value);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || parsed[kNumber]) {
    throw new Error('An item is a JSON object');
  }
  const item = {};
  for (const [name, value] of Object.entries(parsed)) {
    item[name] = fromPlain(value, original[name] && Object.keys(original[name])[0]);
  }
  return item;
}

function fromPlain(value, hint) {
  if (value === null) return {NULL: true};
  if (typeof value === 'boolean') return {BOOL: value};
  if (typeof value === 'string') return hint === 'B' ? {B: value} : {S: value};
  if (value[kNumber] !== undefined) return {N: value[kNumber]};
  if (Array.isArray(value)) {
    if (hint === 'SS' || hint === 'BS') return {[hint]: value.map(String)};
    if (hint === 'NS') return {NS: value.map((x) => x[kNumber] ?? String(x))};
    return {L: value.map((x) => fromPlain(x))};
  }
  const map = {};
  for (const [k, x] of Object.entries(value)) map[k] = fromPlain(x);
  return {M: map};
}

// The item's key, given the key schema.
export function keyOf(item, keySchema) {
  const key = {};
  for (const {AttributeName} of keySchema) key[AttributeName] = item[AttributeName];
  return key;
}

export function sameJson(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Work to undo when the user leaves the current view (timers, pollers).
const leaveHandlers = [];

export function onLeave(handler) {
  leaveHandlers.push(handler);
}

export function leaveView() {
  while (leaveHandlers.length) leaveHandlers.pop()();
}
