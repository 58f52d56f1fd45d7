// The page's Query tab: a query's text goes to POST /api/query/stream (progress and Stop, as the
// equity tab); the answer is shown as a table (one row per aggregate) and each histogram as a
// bar chart drawn here in SVG. No poker logic; it uses the helpers of app.js ($, el, streamed,
// submitForm, count, stoppedText).
"use strict";

(() => {
  const SVG_NS = "http://www.w3.org/2000/svg";

  function svg(tag, attrs = {}, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    for (const child of children) node.append(child);
    return node;
  }

  const number = (x, digits = 6) => (x === null || x === undefined ? "-" : Number(x).toFixed(digits));

  function valueText(r) {
    if (Array.isArray(r.value)) return `histogram (${r.value.length} buckets)`;
    if (r.value === null) return "-";
    if (r.aggregate === "avg" || r.aggregate === "count") {
      const text = number(r.value);
      return r.count === undefined ? text : `${text} (${count(Math.round(r.count))})`;
    }
    return String(r.value);
  }

  function stderrText(r, exact) {
    if (exact) return "exact";
    if (Array.isArray(r.value)) return "per bar";
    return r.stderr === null ? "-" : number(r.stderr);
  }

  // One bar per bucket: height is the bucket's share of the matched deals, with its error bar.
  function barChart(r, exact) {
    const width = 640, height = 260, left = 52, right = 12, top = 12, bottom = 76;
    const bars = r.value;
    const peak = Math.max(1e-9, ...bars.map((b) => b.value + (exact ? 0 : b.stderr || 0)));
    const step = (width - left - right) / Math.max(1, bars.length);
    const y = (v) => top + (1 - v / peak) * (height - top - bottom);
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": `histogram of ${r.name}`, class: "query-chart" });
    for (let i = 0; i <= 4; i += 1) {
      const v = (peak * i) / 4;
      chart.append(svg("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }),
        svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end" }, `${(v * 100).toFixed(1)}%`));
    }
    bars.forEach((b, i) => {
      const x = left + i * step;
      const bar = svg("rect", { x: x + step * 0.1, width: step * 0.8, y: y(b.value),
        height: Math.max(0, y(0) - y(b.value)), class: "qbar" },
      svg("title", {}, `${b.bucket}: ${(b.value * 100).toFixed(2)}%`));
      chart.append(bar);
      if (!exact && b.stderr) {
        const mid = x + step / 2;
        chart.append(svg("line", { x1: mid, x2: mid, y1: y(b.value + b.stderr),
          y2: y(Math.max(0, b.value - b.stderr)), class: "err" }));
      }
      const label = svg("text", { x: x + step / 2, y: height - bottom + 12, class: "bucket",
        "text-anchor": "end", transform: `rotate(-35 ${x + step / 2} ${height - bottom + 12})` },
      b.bucket);
      chart.append(label);
    });
    return el("figure", { class: "query-histogram" }, el("figcaption", { text: r.name }), chart);
  }

  function render(data) {
    const exact = data.method === "exact";
    const head = ["name", "value", "stderr", "deals", "matched"];
    const rows = data.results.map((r) => el("tr", {},
      el("td", { text: r.name }),
      el("td", { class: "num", text: valueText(r) }),
      el("td", { class: "num", text: stderrText(r, exact) }),
      el("td", { class: "num", text: count(data.deals) }),
      el("td", { class: "num", text: count(data.matched) })));
    $("#query-table").replaceChildren(
      el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { text: h })))),
      el("tbody", {}, ...rows));
    $("#query-charts").replaceChildren(
      ...data.results.filter((r) => Array.isArray(r.value)).map((r) => barChart(r, exact)));
    const how = exact ? "every deal enumerated" : `sampled, seed ${data.seed}`;
    // a sampled run says why it ended: a time limit or a Stop cuts it short of what it asked
    const why = exact ? "" : `, ${stoppedText(data.stopped)}`;
    $("#query-summary").textContent =
      `${data.method}: ${counted(data.deals, "deal")} (${how}), ` +
      `${count(data.matched)} passed where, ${data.seconds.toFixed(3)} s${why}`;
    $("#query-results").hidden = false;
  }

  function setup() {
    const form = $("#query-form");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      submitForm(form, () => streamed(form, "query", { text: $("#query-text").value }), render);
    });
  }

  document.addEventListener("DOMContentLoaded", setup);
})();
