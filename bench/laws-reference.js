// The model and the input wiring shared by the reference pages of `make bench`
// (bench/plotly.html, bench/uplot.html): the Laws panel's speedup curves at the default
// scenario, computed in JavaScript, and the page's update pattern. Plain browser JavaScript,
// loaded with a <script> tag before the page's own script; served by bench/bench.mjs from a
// temporary directory.
//
// Same curves as src/chart/laws.rs::describe_speedup at the default scenario (f = 0.05,
// compare 0.01, 0.1, 0.25, N_max = 4096, g = 0.5): ideal S = N, the 1/f ceiling, three
// comparison Amdahl curves, Sun–Ni, Gustafson, Amdahl — 96 log-spaced points each
// (CURVE_SAMPLES in crates/model/src/sweep.rs).
//
// Updates follow the page's own pattern: the input event stores the value and asks for one
// requestAnimationFrame; the frame computes the curves and redraws. The benchmark drives
// #f-input and #f-range exactly as it drives the real page.
'use strict';
(() => {
  const params = new URLSearchParams(location.search);
  const WIDTH = Number(params.get('w') || 1100);
  const HEIGHT = Number(params.get('h') || 440);
  const SAMPLES = 96; // = CURVE_SAMPLES (crates/model/src/sweep.rs): the same points as our chart
  const N_MAX = 4096;
  const G = 0.5;
  const COMPARE = [0.01, 0.1, 0.25];
  // src/chart/mod.rs: PALETTE, Theme::LIGHT; src/chart/laws.rs: IDEAL, COMPARE.
  const BLUE = '#0072B2', VERMILLION = '#D55E00', GREEN = '#009E73', GREY = '#5F666D';
  const COMPARE_COLOURS = ['#E69F00', '#56B4E9', '#CC79A7', '#8A8A8A'];
  const THEME = { background: '#FFFFFF', foreground: '#1F2328', grid: '#E4E7EB', muted: '#5F666D' };

  const amdahl = (f, n) => 1 / (f + (1 - f) / n);
  const gustafson = (f, n) => f + (1 - f) * n;
  const sunNi = (f, n, g) => {
    const growth = Math.pow(n, g);
    return (f + (1 - f) * growth) / (f + ((1 - f) * growth) / n);
  };
  const logSpace = (max, samples) => {
    const out = new Array(samples);
    const lnMax = Math.log(max);
    for (let i = 0; i < samples; i++) out[i] = i + 1 === samples ? max : Math.exp((lnMax * i) / (samples - 1));
    return out;
  };
  const NS = logSpace(N_MAX, SAMPLES);
  const fmt = (v) => String(Number(v.toPrecision(3)));
  // The y range of describe_speedup without measured points.
  const Y_TOP = N_MAX * 1.15;
  const Y_BOTTOM = 0.9;

  // The slider's mapping (src/controls.rs, with f's row of src/scenario/key.rs): position 0
  // is f = 0, positions 1..1000 are log-spaced from 1e-4 to 1.
  const sliderValue = (p) => (p <= 0 ? 0 : 1e-4 * Math.pow(1e4, (p - 1) / 999));
  const sliderPosition = (f) => (f <= 0 ? 0 : Math.round(1 + (Math.log(Math.max(f, 1e-4) / 1e-4) / Math.log(1e4)) * 999));
  const parseFraction = (text) => {
    const t = text.trim();
    const v = t.endsWith('%') ? Number(t.slice(0, -1)) / 100 : Number(t);
    return Number.isFinite(v) && v >= 0 && v <= 1 ? v : null;
  };

  /**
   * The input wiring: `frame(f)` runs in one requestAnimationFrame after any number of input
   * events. Returns the initial f.
   */
  function wire(frame) {
    let f = 0.05;
    let frameRequested = false;
    const range = document.getElementById('f-range');
    const input = document.getElementById('f-input');
    const onFrame = () => {
      frameRequested = false;
      frame(f);
    };
    const requestFrame = () => {
      if (frameRequested) return;
      frameRequested = true;
      requestAnimationFrame(onFrame);
    };
    range.addEventListener('input', () => {
      f = sliderValue(Number(range.value));
      input.value = fmt(f);
      requestFrame();
    });
    input.addEventListener('input', () => {
      const v = parseFraction(input.value);
      if (v === null) return;
      f = v;
      range.value = String(sliderPosition(f));
      requestFrame();
    });
    range.value = String(sliderPosition(f));
    return f;
  }

  /** Marks the page ready for the benchmark after the first frame that shows the chart. */
  const ready = () => requestAnimationFrame(() => document.body.setAttribute('data-ready', '1'));

  window.lawsReference = {
    WIDTH, HEIGHT, SAMPLES, N_MAX, G, COMPARE, NS, Y_TOP, Y_BOTTOM,
    BLUE, VERMILLION, GREEN, GREY, COMPARE_COLOURS, THEME,
    amdahl, gustafson, sunNi, fmt, wire, ready,
  };
})();
