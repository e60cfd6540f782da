import type { RenderedEmail } from '../email-job.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Every value from an event goes through this before it reaches HTML. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** Longest text someone else chose that an email shows, in user-perceived characters (contract §10). */
export const QUOTED_TEXT_MAX_CHARS = 64;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The first `max` user-perceived characters of `value`: never half a surrogate pair or of a combined character. */
export function cutToCharacters(value: string, max: number): string {
  let cut = '';
  let count = 0;
  for (const { segment } of graphemes.segment(value)) {
    if (count === max) break;
    cut += segment;
    count += 1;
  }
  return cut;
}

/**
 * Escaped, with an invisible word joiner (U+2060) before every `.`, `:`, `/` and `@`: what is left
 * is no URL or address a mail client would turn into a link, yet reads the same.
 */
function unlinkableHtml(value: string): string {
  return escapeHtml(value).replace(/[.:/@]/g, '&#8288;$&');
}

/** "2026-11-22 10:15 UTC" */
export function formatTime(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function greeting(name: string | null): string {
  return name ? `Hello ${name},` : 'Hello,';
}

/**
 * A field's value: our own text, or `{ quoted }`, text someone else chose, shown in double quotes,
 * cut to QUOTED_TEXT_MAX_CHARS and, in HTML, never as a link.
 */
export type FieldValue = string | { quoted: string };

/** One block of an email: plain text, a call to action, a code, or preformatted user text. */
export type Block =
  | { kind: 'text'; text: string }
  | { kind: 'action'; label: string; url: string }
  | { kind: 'code'; code: string }
  | { kind: 'quote'; text: string }
  | { kind: 'fields'; fields: Array<[string, FieldValue]> };

/** The same content as HTML (escaped, inline styles only) and as plain text. */
export function compose(subject: string, blocks: Block[]): RenderedEmail {
  const html = blocks.map(blockHtml).join('\n');
  const text = blocks.map(blockText).join('\n\n');
  return {
    subject: subject.replace(/[\r\n]+/g, ' ').slice(0, 250),
    html: `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933;max-width:560px;margin:0 auto;padding:24px">
${html}
</body></html>`,
    text: `${text}\n`,
  };
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'text':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'action':
      return `<p><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(block.label)}</a></p>
<p style="font-size:13px;color:#52606d">If the button does not work, open this link: <a href="${escapeHtml(block.url)}">${escapeHtml(block.url)}</a></p>`;
    case 'code':
      return `<p style="font-size:26px;font-weight:bold;letter-spacing:6px;font-family:monospace">${escapeHtml(block.code)}</p>`;
    case 'quote':
      return `<blockquote style="margin:0;padding:12px 16px;border-left:4px solid #cbd2d9;background:#f5f7fa;white-space:pre-wrap">${escapeHtml(block.text)}</blockquote>`;
    case 'fields':
      return `<table style="border-collapse:collapse">${block.fields
        .map(([label, value]) => `<tr><td style="padding:2px 12px 2px 0;color:#52606d">${escapeHtml(label)}</td><td>${fieldHtml(value)}</td></tr>`)
        .join('')}</table>`;
  }
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'text':
      return block.text;
    case 'action':
      return `${block.label}: ${block.url}`;
    case 'code':
      return `    ${block.code}`;
    case 'quote':
      return block.text
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'fields':
      return block.fields.map(([label, value]) => `${label}: ${fieldText(value)}`).join('\n');
  }
}

function fieldHtml(value: FieldValue): string {
  return typeof value === 'string' ? escapeHtml(value) : `&quot;${unlinkableHtml(cutToCharacters(value.quoted, QUOTED_TEXT_MAX_CHARS))}&quot;`;
}

function fieldText(value: FieldValue): string {
  return typeof value === 'string' ? value : `"${cutToCharacters(value.quoted, QUOTED_TEXT_MAX_CHARS)}"`;
}
