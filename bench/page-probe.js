// Injected into every benchmarked page before its own scripts (context.addInitScript), as
// window.__bench. Plain browser JavaScript, no imports. See docs/performance.md, "Method".
//
// One update, timed on the page's own clock (performance.now(), 0 = navigation start):
//
//   t0   before the input event is dispatched (value set, `input`/`change` dispatched)
//   tH   after dispatch returns: the page's event handler (Rust: validate, store, request
//        one animation frame) has run
//   tFs  start of the animation frame: a rAF callback registered *before* the dispatch, so it
//        runs immediately before the page's own rAF callback (callbacks run in order)
//   tFe  end of the page's redraw: a rAF callback registered *after* the dispatch, so it runs
//        immediately after the page's callback (model, canvas drawing, then DOM text)
//   tP   a MessageChannel task posted from that last callback: it runs after the browser has
//        finished the frame (style, layout, paint, canvas flush, commit to the compositor)
//
// cost = (tH - t0) + (tP - tFs): the main-thread time of one update, from the event to the
// committed frame, without the idle wait for the next vsync (tFs - tH), which depends on
// when in the 16.7 ms frame the event happened to arrive, not on the page.
// latency = tP - t0 includes that wait. script = (tH - t0) + (tFe - tFs): the page's own
// JavaScript/WebAssembly (including the layout its DOM reads force).
(() => {
  if (window.__bench) return;
  const now = () => performance.now();

  // Start time of each canvas's drawing within a frame: the page's canvas backend
  // (crates/web/src/canvas.rs) asks for the canvas's 2D context when a chart starts (twice: once for
  // plotters-canvas, once for text measurement; only the first of a run counts). One cheap
  // wrapper, no per-call cost.
  const contextCalls = [];
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (...args) {
    if (this.id && contextCalls.at(-1)?.[0] !== this.id) contextCalls.push([this.id, now()]);
    return getContext.apply(this, args);
  };
  // End of the charts: the page draws its charts first, then writes its tables and text
  // (Node.textContent). The first such write after a chart began is when the text starts; a
  // wrapper on the setter costs a comparison per write.
  let textAt = null;
  const textContent = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent');
  Object.defineProperty(Node.prototype, 'textContent', {
    ...textContent,
    set(v) {
      if (textAt === null && contextCalls.length) textAt = now();
      return textContent.set.call(this, v);
    },
  });

  // history.replaceState (the page mirrors its state into the URL, throttled to one write per
  // 200 ms): how long each call takes.
  const urlWrites = [];
  const replaceState = History.prototype.replaceState;
  History.prototype.replaceState = function (...args) {
    const t = now();
    try {
      return replaceState.apply(this, args);
    } finally {
      urlWrites.push([t, now() - t]);
    }
  };

  // Load: when body[data-ready="1"] appears, and when the frame that set it has been produced.
  const load = { readyAt: null, readyFrameDoneAt: null, appStartedAt: null };
  // The wasm instance's memory (Trunk's loader passes the exports in the event), for the soak.
  let wasmMemory = null;
  addEventListener('TrunkApplicationStarted', (e) => {
    load.appStartedAt = now();
    // The build minifies export names: find the memory by its type.
    const exports = e.detail && e.detail.wasm ? Object.values(e.detail.wasm) : [];
    wasmMemory = exports.find((v) => v instanceof WebAssembly.Memory) || null;
  });
  const observer = new MutationObserver(() => {
    if (load.readyAt === null && document.body && document.body.dataset.ready === '1') {
      load.readyAt = now();
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { load.readyFrameDoneAt = now(); };
      ch.port2.postMessage(null);
      observer.disconnect();
    }
  });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });

  const afterFrame = () => new Promise((resolve) => {
    requestAnimationFrame(() => {
      const tFe = now();
      const ch = new MessageChannel();
      ch.port1.onmessage = () => resolve([tFe, now()]);
      ch.port2.postMessage(null);
    });
  });

  let marks = false;
  async function update(selector, value, type) {
    const el = document.querySelector(selector);
    if (!el) throw new Error(`no element ${selector}`);
    let tFs = NaN;
    requestAnimationFrame(() => { tFs = now(); });
    contextCalls.length = 0;
    textAt = null;
    urlWrites.length = 0;
    window.__benchPending = null;
    // Marks for the Chrome trace (main-thread CPU time per update), when one is recorded.
    if (marks) performance.mark('bench-u0');
    const t0 = now();
    el.value = value;
    el.dispatchEvent(new Event(type, { bubbles: true }));
    const tH = now();
    let [tFe, tP] = await afterFrame();
    const charts = contextCalls.map(([id, t]) => [id, t]);
    const text = textAt !== null && textAt <= tFe ? textAt : null;
    // Plotly.react returns a promise; if any of the redraw happened after it resolved (after
    // our frame), wait for the frame that shows it.
    let late = false;
    if (window.__benchPending) {
      await window.__benchPending;
      if (window.__benchResolvedAt > tFe) {
        late = true;
        [, tP] = await afterFrame();
      }
    }
    if (marks) performance.mark('bench-u1');
    const writes = urlWrites.filter(([t]) => t >= t0 && t <= tP);
    const urlWrite = writes.reduce((a, [, d]) => a + d, 0);
    return { t0, tH, tFs, tFe, tP, charts, textAt: text, late, urlWrites: writes.length, urlWrite };
  }

  /** Slider positions sweeping [30%, 90%] of the range back and forth, never repeating the last. */
  function sliderPositions(selector, count) {
    const el = document.querySelector(selector);
    const lo = Number(el.min || 0), hi = Number(el.max || 100);
    const a = Math.round(lo + 0.3 * (hi - lo)), b = Math.round(lo + 0.9 * (hi - lo));
    const step = Math.max(1, Math.round((b - a) / 37));
    const out = [];
    let p = Number(el.value), dir = 1;
    if (!(p >= a && p <= b)) p = a;
    for (let i = 0; i < count; i++) {
      if (p + dir * step > b || p + dir * step < a) dir = -dir;
      p += dir * step;
      out.push(String(p));
    }
    return out;
  }

  /**
   * Runs `count` updates alternating slider moves and typed values (after `warmup` untimed
   * ones), or slider moves only (`sliderOnly`: a drag); typed[i] is the text typed at step i.
   * `msg` is the input's message element: an update that leaves a message there was rejected
   * and is reported apart.
   */
  async function run({ slider, input, typed, count, warmup, msg, traced = false, sliderOnly = false }) {
    marks = traced;
    const positions = sliderPositions(slider, warmup + count);
    const results = [];
    for (let i = 0; i < warmup + count; i++) {
      const isSlider = sliderOnly || i % 2 === 0;
      const r = isSlider
        ? await update(slider, positions[i], 'input')
        : await update(input, typed[i], 'input');
      r.kind = isSlider ? 'slider' : 'typed';
      r.rejected = msg ? (document.querySelector(msg)?.textContent ?? '') !== '' : false;
      if (i >= warmup) results.push(r);
    }
    return results;
  }

  /**
   * The soak: `steps` slider moves back and forth, one frame each, or the moves `from` … `to`
   * of them (so that the caller can look at the page between the warm-up and the rest).
   * Returns the cost of each (as update() times it, without the per-update bookkeeping of
   * run()) and the wasm memory in bytes every `every` steps: the page's free-list allocator
   * must not grow after warm-up.
   */
  async function soak({ slider, steps, every = 500, from = 0, to = steps }) {
    const positions = sliderPositions(slider, steps);
    const costs = new Float64Array(to - from);
    const memory = [];
    for (let i = from; i < to; i++) {
      const r = await update(slider, positions[i], 'input');
      costs[i - from] = (r.tH - r.t0) + (r.tP - r.tFs);
      if (i % every === every - 1) memory.push([i + 1, wasmMemory ? wasmMemory.buffer.byteLength : NaN]);
    }
    return { costs: Array.from(costs), memory };
  }

  // Optional: counts every CanvasRenderingContext2D call and property write (slows drawing;
  // used in a separate pass only).
  let counting = null;
  function countCanvasCalls() {
    if (counting) return;
    counting = new Map();
    countGeometryReads();
    const proto = CanvasRenderingContext2D.prototype;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (!d || name === 'constructor') continue;
      if (typeof d.value === 'function') {
        const fn = d.value;
        proto[name] = function (...args) {
          counting.set(name, (counting.get(name) || 0) + 1);
          return fn.apply(this, args);
        };
      } else if (d.set) {
        const set = d.set;
        Object.defineProperty(proto, name, {
          ...d,
          set(v) {
            counting.set(`${name}=`, (counting.get(`${name}=`) || 0) + 1);
            return set.call(this, v);
          },
        });
      }
    }
  }
  // Geometry reads force a synchronous style+layout when the DOM changed since the last one.
  function countGeometryReads() {
    for (const [proto, names] of [[HTMLElement.prototype, ['offsetWidth', 'offsetHeight']], [Element.prototype, ['clientWidth', 'clientHeight']]]) {
      for (const name of names) {
        const d = Object.getOwnPropertyDescriptor(proto, name);
        Object.defineProperty(proto, name, {
          ...d,
          get() {
            counting.set(`(element).${name}`, (counting.get(`(element).${name}`) || 0) + 1);
            return d.get.call(this);
          },
        });
      }
    }
  }
  function takeCanvasCounts() {
    const out = Object.fromEntries(counting || []);
    if (counting) counting.clear();
    return out;
  }

  window.__bench = { update, run, soak, load, countCanvasCalls, takeCanvasCounts };
})();
