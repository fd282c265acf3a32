// The Learn view's texts: www/learn/<lang>.html → dist/learn-<lang>-<hash>.html,
// each named in index.html by <meta name="learn-<lang>" content="./learn-<lang>-<hash>.html">.
// The page fetches the reader's file when view=learn first opens (crates/web/src/learn.rs), so no
// reader of the other panels downloads them (tests/e2e/size.test.mjs keeps them apart).
// Each live figure's chart is written into its file at build time (`scaling
// prerender --figure`, the SVG the page's export writes), after its canvas, where the style
// sheet lays it over the canvas until the page has drawn it: the texts read with their
// figures before the model is in.
import { readFileSync, writeFileSync, readdirSync, unlinkSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const LANGS = ['en', 'zh'];
export const isLearnFile = (f) => /^learn-(en|zh)-[0-9a-f]+\.html$/.test(f);

const FIGURE = /(<figure class="learn-fig" data-chart="([^"]+)" data-query="([^"]*)">\s*<canvas\b[^>]*><\/canvas>)/g;
const unescapeAttr = (s) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** `html` with each live figure's prerendered chart after its canvas, in `lang`. */
export function withFigures(html, lang) {
  const figures = [...html.matchAll(FIGURE)].map((m) => `${m[2]} ${unescapeAttr(m[3])}`);
  if (figures.length === 0) return html;
  const args = ['run', '--quiet', '--bin', 'scaling', '--', 'prerender', '--lang', lang, ...figures.flatMap((f) => ['--figure', f])];
  const svgs = JSON.parse(execFileSync('cargo', args, { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] }));
  let i = 0;
  return html.replace(FIGURE, (canvas) => canvas + svgs[i++].trim());
}

export function writeLearnFiles(dir, srcDir = path.join(REPO, 'www', 'learn')) {
  for (const old of readdirSync(dir).filter(isLearnFile)) unlinkSync(path.join(dir, old));
  const indexPath = path.join(dir, 'index.html');
  let html = readFileSync(indexPath, 'utf8').replace(/<meta name="learn-(en|zh)"[^>]*>/g, '');
  const written = [];
  const metas = [];
  for (const lang of LANGS) {
    const text = withFigures(readFileSync(path.join(srcDir, `${lang}.html`), 'utf8'), lang);
    const name = `learn-${lang}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.html`;
    writeFileSync(path.join(dir, name), text);
    metas.push(`<meta name="learn-${lang}" content="./${name}">`);
    written.push({ name, bytes: Buffer.byteLength(text) });
  }
  const charset = /<meta\b[^>]*\bcharset\b[^>]*>/i;
  if (!charset.test(html)) throw new Error(`learn-files: ${indexPath} has no <meta charset> to follow`);
  html = html.replace(charset, (tag) => tag + metas.join(''));
  writeFileSync(indexPath, html);
  return written;
}
