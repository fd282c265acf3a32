// The Learn view's texts (issue 12): www/learn/<lang>.html → dist/learn-<lang>-<hash>.html,
// each named in index.html by <meta name="learn-<lang>" content="./learn-<lang>-<hash>.html">.
// The page fetches the reader's file when view=learn first opens (crates/web/src/learn.rs), so no
// reader of the other panels downloads them (tests/e2e/size.test.mjs keeps them apart).
import { readFileSync, writeFileSync, readdirSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const LANGS = ['en', 'zh'];
export const isLearnFile = (f) => /^learn-(en|zh)-[0-9a-f]+\.html$/.test(f);

export function writeLearnFiles(dir, srcDir = path.join(REPO, 'www', 'learn')) {
  for (const old of readdirSync(dir).filter(isLearnFile)) unlinkSync(path.join(dir, old));
  const indexPath = path.join(dir, 'index.html');
  let html = readFileSync(indexPath, 'utf8').replace(/<meta name="learn-(en|zh)"[^>]*>/g, '');
  const written = [];
  const metas = [];
  for (const lang of LANGS) {
    const text = readFileSync(path.join(srcDir, `${lang}.html`), 'utf8');
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
