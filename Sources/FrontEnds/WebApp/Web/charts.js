// Small SVG charts drawn from numbers the API gives; every chart also has a text table or
// label with the same numbers, so nothing is told by colour or shape alone.

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs = {}, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Vertical bars with a label under each and the value above it.
export function barChart({ title, bars, width = 720, height = 200, labelEvery = 1 }) {
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": title });
  svg.style.maxWidth = `${width}px`;   // drawn at most at its own size (CSSOM, which the CSP allows)
  svg.append(el("title", {}, title));
  const max = Math.max(1, ...bars.map((b) => b.value));
  const top = 18, bottom = 22, gap = 2;
  const w = width / Math.max(1, bars.length);
  bars.forEach((b, i) => {
    const h = ((height - top - bottom) * b.value) / max;
    const x = i * w + gap / 2, y = height - bottom - h;
    const rect = el("rect", { x, y, width: Math.max(1, w - gap), height: Math.max(b.value ? 1 : 0, h), fill: b.color ?? "#1d4e89", rx: 2 });
    rect.append(el("title", {}, `${b.label}: ${b.value}`));
    svg.append(rect);
    if (b.value) svg.append(el("text", { x: x + w / 2, y: y - 4, "text-anchor": "middle" }, String(b.value)));
    if (i % labelEvery === 0) svg.append(el("text", { x: x + w / 2, y: height - 6, "text-anchor": "middle" }, b.label));
  });
  svg.append(el("line", { x1: 0, x2: width, y1: height - bottom, y2: height - bottom, stroke: "#4a5563" }));
  return svg;
}

// A horizontal meter for a share (0…1), with its percentage written beside it.
export function meter({ title, value, width = 320 }) {
  const svg = el("svg", { viewBox: `0 0 ${width} 28`, class: "chart", role: "img", "aria-label": `${title}: ${Math.round(value * 100)}%` });
  svg.append(el("rect", { x: 0, y: 4, width: width - 60, height: 20, fill: "#e6eef8", rx: 4 }));
  svg.append(el("rect", { x: 0, y: 4, width: (width - 60) * value, height: 20, fill: "#1e7a3c", rx: 4 }));
  svg.append(el("text", { x: width - 54, y: 19 }, `${Math.round(value * 100)}%`));
  return svg;
}
