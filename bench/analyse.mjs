// Statistics and profile analysis for bench/bench.mjs: percentiles, Chrome trace self time by
// event, V8 CPU profile self time by function (Rust names demangled), size formatting.

/** Nearest-rank percentile of a numeric array (p in 0..100). */
export function percentile(values, p) {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))];
}

export function summary(values) {
  const v = values.filter((x) => Number.isFinite(x));
  if (!v.length) return { n: 0, median: NaN, p95: NaN, mean: NaN, min: NaN, max: NaN };
  return {
    n: v.length,
    median: percentile(v, 50),
    p95: percentile(v, 95),
    mean: v.reduce((a, b) => a + b, 0) / v.length,
    min: Math.min(...v),
    max: Math.max(...v),
  };
}

export const ms = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
export const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Pads cells into aligned columns; the first column left-aligned, the others right-aligned. */
export function table(rows) {
  const widths = [];
  for (const r of rows) r.forEach((c, i) => { widths[i] = Math.max(widths[i] || 0, String(c).length); });
  return rows
    .map((r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  '))
    .join('\n');
}

// ---- Chrome trace (Tracing domain, JSON array of events) -------------------------------------

/**
 * Self time per event name on the page's main thread between the performance marks
 * `bench-begin` and `bench-end`, in ms. The thread is the one that recorded the marks.
 * Returns { perName: [[name, ms]], windowMs, tasks } or null when the marks are missing.
 */
export function traceSelfTimes(events) {
  const marks = events.filter((e) => e.cat && e.cat.includes('blink.user_timing') && (e.name === 'bench-begin' || e.name === 'bench-end'));
  const begin = marks.find((e) => e.name === 'bench-begin');
  const end = marks.find((e) => e.name === 'bench-end');
  if (!begin || !end) return null;
  // The marks are recorded on the renderer main thread of the benchmarked page.
  const pid = begin.pid;
  const mainTid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid ?? begin.tid;
  const t0 = begin.ts, t1 = end.ts;
  const own = events
    .filter((e) => e.pid === pid && e.tid === mainTid && e.ph === 'X' && e.ts >= t0 && e.ts + (e.dur || 0) <= t1)
    .sort((a, b) => a.ts - b.ts || (b.dur || 0) - (a.dur || 0));
  const self = new Map();
  const stack = [];
  let busy = 0;
  const close = (until) => {
    while (stack.length && stack[stack.length - 1].end <= until) stack.pop();
  };
  for (const e of own) {
    const dur = e.dur || 0;
    close(e.ts);
    const node = { name: e.name, end: e.ts + dur };
    if (stack.length) {
      const parent = stack[stack.length - 1];
      self.set(parent.name, (self.get(parent.name) || 0) - dur);
    } else {
      busy += dur;
    }
    self.set(e.name, (self.get(e.name) || 0) + dur);
    stack.push(node);
  }
  const perName = [...self.entries()].map(([n, us]) => [n, us / 1000]).filter(([, v]) => v > 0.0005).sort((a, b) => b[1] - a[1]);
  return { perName, windowMs: (t1 - t0) / 1000, busyMs: busy / 1000 };
}

/**
 * The main-thread time of the benchmarked updates, split the way a reader of the page would ask
 * about it (ms summed over the window; divide by the number of updates). Needs the categories
 * devtools.timeline, disabled-by-default-devtools.timeline, blink, cc, blink.user_timing, toplevel.
 *
 *   inputHandler      EventDispatch (the page's `input` listener)
 *   rafScript         FireAnimationFrame (the page's redraw callback) without the forced layout in it
 *   forcedLayout      Blink.ForcedStyleAndLayout.UpdateTime: style and layout that script forces by
 *                     reading geometry (clientWidth, offsetHeight) after changing the DOM; count too
 *   frameStyleLayout  style and layout in the frame's own lifecycle (not forced)
 *   paint             PrePaint, Paint, Layerize
 *   canvasRaster      Canvas2D…ProduceCanvasResource: the canvases' recorded draw calls rasterised
 *                     into the frame's resources (software, on the main thread with --disable-gpu)
 *   frameRest         the rest of BeginMainFrame (commit, layer updates)
 *   otherTasks        other main-thread tasks in the window (URL timer, messages, …)
 */
export function traceBreakdown(events) {
  const begin = events.find((e) => e.name === 'bench-begin');
  const end = events.find((e) => e.name === 'bench-end');
  if (!begin || !end) return null;
  const pid = begin.pid;
  const tid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid ?? begin.tid;
  const own = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts >= begin.ts && e.ts + (e.dur || 0) <= end.ts)
    .sort((a, b) => a.ts - b.ts || (b.dur || 0) - (a.dur || 0));
  const sums = { busy: 0, inputHandler: 0, raf: 0, forcedLayout: 0, forcedInRaf: 0, forcedCount: 0, frame: 0, frameStyleLayout: 0, paint: 0, canvasRaster: 0, layouts: 0, shapes: 0 };
  const stack = [];
  const has = (re) => stack.some((s) => re.test(s.name));
  for (const e of own) {
    const dur = (e.dur || 0) / 1000;
    while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
    const n = e.name;
    if (!stack.length) sums.busy += dur;
    if (n === 'EventDispatch' && !has(/^EventDispatch$/)) sums.inputHandler += dur;
    if (n === 'FireAnimationFrame' && !has(/^FireAnimationFrame$/)) sums.raf += dur;
    if (n === 'Blink.ForcedStyleAndLayout.UpdateTime' && !has(/^Blink\.ForcedStyleAndLayout/)) {
      sums.forcedLayout += dur;
      sums.forcedCount += 1;
      if (has(/^FireAnimationFrame$/)) sums.forcedInRaf += dur;
    }
    if (n === 'ProxyMain::BeginMainFrame' && !has(/^ProxyMain::BeginMainFrame$/)) sums.frame += dur;
    const inScript = has(/^(FireAnimationFrame|EventDispatch|FunctionCall|Blink\.ForcedStyleAndLayout\.UpdateTime)$/);
    if ((n === 'UpdateLayoutTree' || n === 'Layout') && !inScript && !has(/^(UpdateLayoutTree|Layout)$/)) sums.frameStyleLayout += dur;
    if (/^(PrePaint|Paint|Layerize)$/.test(n) && !has(/^(PrePaint|Paint|Layerize)$/)) sums.paint += dur;
    if (/ProduceCanvasResource/.test(n) && !has(/ProduceCanvasResource/)) sums.canvasRaster += dur;
    if (n === 'Layout') sums.layouts += 1;
    if (n === 'InlineNode::ShapeTextIncludingFirstLine') sums.shapes += 1;
    stack.push({ name: n, end: e.ts + (e.dur || 0) });
  }
  const rafScript = sums.raf - sums.forcedInRaf;
  const frameRest = Math.max(0, sums.frame - sums.raf - sums.frameStyleLayout - sums.paint - sums.canvasRaster);
  const otherTasks = Math.max(0, sums.busy - sums.frame - sums.inputHandler);
  return {
    busy: sums.busy,
    parts: {
      inputHandler: sums.inputHandler,
      rafScript,
      forcedLayout: sums.forcedLayout,
      frameStyleLayout: sums.frameStyleLayout,
      paint: sums.paint,
      canvasRaster: sums.canvasRaster,
      frameRest,
      otherTasks,
    },
    counts: { forcedLayouts: sums.forcedCount, layouts: sums.layouts, textShapes: sums.shapes },
  };
}

/**
 * The main thread of a cold load, between the marks bench-begin (set by the first init script)
 * and bench-end (after the first full frame): busy time and the inclusive time of the parts
 * that matter (outermost occurrences; ms). Needs v8.wasm, devtools.timeline, blink, toplevel.
 */
export function loadBreakdown(events) {
  const begin = events.find((e) => e.name === 'bench-begin');
  const end = events.find((e) => e.name === 'bench-end');
  if (!begin || !end) return null;
  const pid = begin.pid;
  const tid = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain')?.tid ?? begin.tid;
  const own = events
    .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts + (e.dur || 0) >= begin.ts && e.ts <= end.ts)
    .sort((a, b) => a.ts - b.ts || (b.dur || 0) - (a.dur || 0));
  const groups = {
    wasmLazyCompile: /^wasm\.CompileLazy$/,
    wasmCompile: /^(v8\.wasm\.|wasm\.(SyncCompile|AsyncCompile|StartStreamingCompilation|OnBytesReceived|OnFinishedStream|SetUrl|FinishCompile|CompileConsume))/,
    firstFrameScript: /^FireAnimationFrame$/,
    scriptEvaluation: /^(EvaluateScript|v8\.evaluateModule|v8\.compileModule|v8\.compile)$/,
    parseHtml: /^ParseHTML$/,
    styleLayout: /^(UpdateLayoutTree|Layout)$/,
    paint: /^(PrePaint|Paint|Layerize)$/,
    canvasRaster: /ProduceCanvasResource/,
  };
  const sums = Object.fromEntries(Object.keys(groups).map((k) => [k, 0]));
  const counts = Object.fromEntries(Object.keys(groups).map((k) => [k, 0]));
  let busy = 0;
  const stack = [];
  for (const e of own) {
    const dur = (e.dur || 0) / 1000;
    while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
    if (!stack.length) busy += dur;
    for (const [k, re] of Object.entries(groups)) {
      if (re.test(e.name) && !stack.some((x) => re.test(x.name))) {
        sums[k] += dur;
        counts[k] += 1;
      }
    }
    stack.push({ name: e.name, end: e.ts + (e.dur || 0) });
  }
  return { busy, windowMs: (end.ts - begin.ts) / 1000, sums, counts };
}

export const LOAD_LABELS = {
  wasmLazyCompile: 'wasm lazy compile (first calls)',
  wasmCompile: 'wasm streaming compile / instantiate',
  firstFrameScript: 'first frame rAF (model + draw, includes lazy compile in it)',
  scriptEvaluation: 'JS evaluation',
  parseHtml: 'HTML parse',
  styleLayout: 'style + layout',
  paint: 'paint',
  canvasRaster: 'canvas raster',
};

/**
 * Main-thread CPU time (trace `tdur`: time the thread actually ran, so not inflated when other
 * processes hold the CPU) of each update, between its marks bench-u0 and bench-u1 (ms, in
 * order). Top-level tasks that straddle a mark count in proportion to their overlap.
 */
export function cpuPerUpdate(events) {
  const u0 = events.filter((e) => e.name === 'bench-u0').sort((a, b) => a.ts - b.ts);
  const u1 = events.filter((e) => e.name === 'bench-u1').sort((a, b) => a.ts - b.ts);
  if (!u0.length) return [];
  const { pid, tid } = u0[0];
  const tasks = [];
  let openEnd = -Infinity;
  for (const e of events.filter((x) => x.pid === pid && x.tid === tid && x.ph === 'X').sort((a, b) => a.ts - b.ts)) {
    if (e.ts >= openEnd) { // outermost only
      tasks.push(e);
      openEnd = e.ts + (e.dur || 0);
    }
  }
  const out = [];
  let k = 0;
  for (let i = 0; i < Math.min(u0.length, u1.length); i++) {
    const a = u0[i].ts, b = u1[i].ts;
    while (k < tasks.length && tasks[k].ts + (tasks[k].dur || 0) <= a) k++;
    let cpu = 0;
    for (let j = k; j < tasks.length && tasks[j].ts < b; j++) {
      const t = tasks[j];
      const dur = t.dur || 0;
      const overlap = Math.min(b, t.ts + dur) - Math.max(a, t.ts);
      if (overlap <= 0 || !dur) continue;
      cpu += ((t.tdur ?? dur) * overlap) / dur;
    }
    out.push(cpu / 1000);
  }
  return out;
}

export const BREAKDOWN_LABELS = {
  inputHandler: 'handler',
  rafScript: 'rAF script',
  forcedLayout: 'forced layout',
  frameStyleLayout: 'frame layout',
  paint: 'paint',
  canvasRaster: 'canvas raster',
  frameRest: 'commit+rest',
  otherTasks: 'other tasks',
};

// ---- V8 CPU profile (Profiler domain) ----------------------------------------------------------

const RUST_ESCAPES = [
  [/\$LT\$/g, '<'], [/\$GT\$/g, '>'], [/\$RF\$/g, '&'], [/\$BP\$/g, '*'], [/\$C\$/g, ','],
  [/\$SP\$/g, '@'], [/\$LP\$/g, '('], [/\$RP\$/g, ')'], [/\$u20\$/g, ' '], [/\$u27\$/g, "'"],
  [/\$u5b\$/g, '['], [/\$u5d\$/g, ']'], [/\$u7b\$/g, '{'], [/\$u7d\$/g, '}'], [/\$u7e\$/g, '~'],
  [/\$u3b\$/g, ';'], [/\$u2b\$/g, '+'], [/\$u22\$/g, '"'], [/\.\./g, '::'],
];

/** Demangles a legacy Rust symbol (`_ZN…17h<hash>E`, as kept in the wasm name section). */
export function demangle(name) {
  let s = name.startsWith('$') ? name.slice(1) : name;
  const m = /^_?_ZN(.*)E$/.exec(s);
  if (!m) return s.replace(/::h[0-9a-f]{16}$/, '');
  const parts = [];
  let rest = m[1];
  while (rest.length) {
    const d = /^(\d+)/.exec(rest);
    if (!d) break;
    const len = Number(d[1]);
    parts.push(rest.slice(d[1].length, d[1].length + len));
    rest = rest.slice(d[1].length + len);
  }
  if (parts.length && /^h[0-9a-f]{16}$/.test(parts[parts.length - 1])) parts.pop();
  let out = parts.join('::');
  for (const [re, r] of RUST_ESCAPES) out = out.replace(re, r);
  return out.replace(/^_+/, '');
}

const isWasm = (frame) => /\.wasm($|\?)|^wasm:\/\//.test(frame.url || '') || /^wasm-function\[/.test(frame.functionName || '');

/** Which bucket a profile frame belongs to (for the coarse split). */
function bucketOf(frame) {
  const fn = frame.functionName || '';
  const url = frame.url || '';
  if (fn === '(program)') return 'browser outside JS (style, layout, paint, raster)';
  if (fn === '(idle)' || fn === '(root)') return 'idle';
  if (fn === '(garbage collector)') return 'garbage collector';
  if (isWasm(frame)) {
    const d = demangle(fn);
    if (/plotters/.test(d)) return 'wasm: plotters';
    if (/^scaling_core::chart/.test(d)) return 'wasm: scaling_core::chart';
    if (/^(scaling_model::|scaling_core::(panel|scenario|text|controls))/.test(d)) return 'wasm: model, panel, scenario';
    if (/^scaling_explorer::canvas/.test(d)) return 'wasm: canvas backend (scaling_explorer::canvas)';
    if (/^scaling_explorer::/.test(d)) return 'wasm: the page glue (scaling_explorer)';
    if (/(core|alloc|std)(\[[0-9a-f]+\])?::fmt|flt2dec/.test(d)) return 'wasm: formatting (core::fmt)';
    if (/dlmalloc|__rust_alloc|__rust_dealloc|__rust_realloc|memcpy|memset|memmove/.test(d)) return 'wasm: allocator, mem*';
    if (/wasm_bindgen|web_sys|js_sys/.test(d)) return 'wasm: wasm-bindgen/web-sys';
    return 'wasm: other Rust (core, alloc, libm)';
  }
  // wasm-bindgen imports (`__wbg_clientWidth_…`): their self time includes the browser work of
  // accessors (a geometry read's forced layout) and of the calls V8 does not show apart.
  if (/__wbg_/.test(fn)) return 'browser calls from the page (canvas, DOM, geometry)';
  if (!url && fn && !fn.startsWith('(')) return 'browser calls from the page (canvas, DOM, geometry)';
  if (/plotly/.test(url)) return 'Plotly.js';
  if (/scaling-explorer[^/]*\.js$/.test(url)) return 'JS glue (wasm-bindgen: strings, objects)';
  return 'other JavaScript';
}

/** Short label for a JS glue function: `__wbg_lineTo_abc123` → `lineTo (glue)`. */
function frameLabel(frame) {
  const fn = frame.functionName || '(anonymous)';
  const glue = /__wbg_(.+)_[0-9a-f]{16}$/.exec(fn) || /__wbg_([A-Za-z0-9]+)/.exec(fn);
  if (glue) return `${glue[1]} (JS→browser call)`;
  if (isWasm(frame)) return demangle(fn);
  const file = (frame.url || '').split('/').pop();
  return file ? `${fn} (${file})` : fn;
}

/**
 * Self time by function and by bucket over a Profiler.stop() profile, in ms, plus the total
 * sampled time (without idle).
 */
export function profileSelfTimes(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const dt = timeDeltas[i + 1] ?? 0; // sample i lasts until the next one
    selfUs.set(samples[i], (selfUs.get(samples[i]) || 0) + dt);
  }
  const byFunction = new Map();
  const byBucket = new Map();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    const bucket = bucketOf(node.callFrame);
    if (bucket === 'idle') continue;
    busy += us;
    byBucket.set(bucket, (byBucket.get(bucket) || 0) + us);
    const label = frameLabel(node.callFrame);
    byFunction.set(label, (byFunction.get(label) || 0) + us);
  }
  const sortMs = (m) => [...m.entries()].map(([k, v]) => [k, v / 1000]).sort((a, b) => b[1] - a[1]);
  return { busyMs: busy / 1000, byBucket: sortMs(byBucket), byFunction: sortMs(byFunction) };
}
