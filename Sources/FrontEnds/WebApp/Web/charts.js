// Small SVG charts drawn from numbers the API gives; every chart also has a text table or
// label with the same numbers, so nothing is told by colour or shape alone.
//
// The charts are drawn at the width they are shown (x in percent, y in pixels, no viewBox), so
// their text is as big on a phone as on a desktop: a viewBox scaled a 720-wide chart to half on a
// 390 px phone, and its 11 px labels to 5.6 px.

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function chart(title, width, height) {
  const svg = el("svg", { class: "chart", role: "img", "aria-label": title });
  // Sizes by CSSOM, which the CSP allows: at most its own width, its height in pixels.
  svg.style.maxWidth = `${width}px`;
  svg.style.height = `${height}px`;
  svg.append(el("title", {}, title));
  return svg;
}

const pct = (n) => `${Math.round(n * 1000) / 1000}%`;

// Vertical bars with a label under each and the value above it. Over a dozen bars (reviews per
// day), the values are left out on a phone, where they would overlap; each bar's title and the
// chart's caption still say them.
export function barChart({ title, bars, width = 720, height = 200, labelEvery = 1 }) {
  const svg = chart(title, width, height);
  const max = Math.max(1, ...bars.map((b) => b.value));
  const top = 22, bottom = 24;
  const w = 100 / Math.max(1, bars.length);
  const dense = bars.length > 12;
  bars.forEach((b, i) => {
    const h = ((height - top - bottom) * b.value) / max;
    const y = height - bottom - h;
    const rect = el("rect", { x: pct(i * w + w * 0.05), y, width: pct(w * 0.9), height: Math.max(b.value ? 1 : 0, h), fill: b.color ?? "#1d4e89", rx: 2 });
    rect.append(el("title", {}, `${b.label}: ${b.value}`));
    svg.append(rect);
    if (b.value) svg.append(el("text", { x: pct(i * w + w / 2), y: y - 5, "text-anchor": "middle", class: dense ? "value dense" : "value" }, String(b.value)));
    if (i % labelEvery === 0) svg.append(el("text", { x: pct(i * w + w / 2), y: height - 6, "text-anchor": "middle" }, b.label));
  });
  svg.append(el("line", { x1: 0, x2: "100%", y1: height - bottom, y2: height - bottom, stroke: "#4a5563" }));
  return svg;
}

// Horizontal bars, one a row, its label above it and its value at its end: long labels
// ("Sports and leisure · Movers") stay whole at any width.
export function rowChart({ title, bars, width = 720 }) {
  const row = 46;
  const svg = chart(title, width, row * bars.length + 4);
  const max = Math.max(1, ...bars.map((b) => b.value));
  bars.forEach((b, i) => {
    const y = i * row;
    svg.append(el("text", { x: 0, y: y + 16 }, b.label));
    const share = (85 * b.value) / max;
    const rect = el("rect", { x: 0, y: y + 22, width: pct(share), height: 16, fill: b.color ?? "#1d4e89", rx: 2 });
    rect.append(el("title", {}, `${b.label}: ${b.value}`));
    svg.append(rect);
    svg.append(el("text", { x: pct(share), dx: 6, y: y + 35 }, String(b.value)));
  });
  return svg;
}

// A horizontal meter for a share (0…1), with its percentage written beside it.
export function meter({ title, value, width = 320 }) {
  const svg = el("svg", { class: "chart", role: "img", "aria-label": `${title}: ${Math.round(value * 100)}%` });
  svg.style.maxWidth = `${width}px`;
  svg.style.height = "28px";
  svg.append(el("rect", { x: 0, y: 4, width: "80%", height: 20, fill: "#e6eef8", rx: 4 }));
  svg.append(el("rect", { x: 0, y: 4, width: pct(80 * value), height: 20, fill: "#1e7a3c", rx: 4 }));
  svg.append(el("text", { x: "83%", y: 19 }, `${Math.round(value * 100)}%`));
  return svg;
}
