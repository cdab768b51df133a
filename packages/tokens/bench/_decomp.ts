import { loadTranscripts } from '@baton/test-corpus';
import { sameCountedMessage } from '../dist/same-counted-message.js';
const all = loadTranscripts().flatMap((t) => t.messages).slice(0, 1000) as any[];
const copies = Array.from({ length: 41 }, () => structuredClone(all));
const strs = (v: any, out: string[]) => { if (typeof v === 'string') out.push(v); else if (v && typeof v === 'object') for (const k in v) strs(v[k], out); return out; };
const S = copies.map((c) => strs(c, []));
let twoByte = 0, chars = 0; for (const s of S[0]!) { chars += s.length; if (/[^\x00-\xff]/.test(s)) twoByte += s.length; }
console.log('chars', chars, 'in two-byte strings', twoByte);
const cpu = (f: () => void) => { const c0 = process.threadCpuUsage(); f(); const c = process.threadCpuUsage(c0); return (c.user + c.system) / 1000; };
for (let r = 0; r < 5; r++) {
  const t1 = cpu(() => { for (let k = 1; k < 21; k++) { const a = copies[k - 1]!, b = copies[k]!; for (let i = 0; i < 1000; i++) if (!sameCountedMessage(a[i], b[i])) throw 1; } }) / 20;
  const t2 = cpu(() => { for (let k = 21; k < 41; k++) { const a = S[k - 1]!, b = S[k]!; for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) throw 2; } }) / 20;
  const t3 = cpu(() => { for (let k = 1; k < 21; k++) { const b = copies[k]!; for (let i = 0; i < 1000; i++) strs(b[i], []); } }) / 20;
  console.log('same', t1.toFixed(3), 'strings only', t2.toFixed(3), 'walk only', t3.toFixed(3));
}
