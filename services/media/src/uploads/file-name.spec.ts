import { AppError } from '@school/http';
import { assertFileName } from './file-name.js';

const refusal = (name: string) => {
  try {
    assertFileName(name);
    return undefined;
  } catch (error) {
    return error instanceof AppError ? { code: error.code, fields: error.errors?.map((entry) => entry.field) } : error;
  }
};

describe('assertFileName (contract §9)', () => {
  it('accepts up to 255 UTF-8 bytes, accents and scripts included', () => {
    expect(refusal(`${'a'.repeat(251)}.png`)).toBeUndefined();
    expect(refusal('élève – فاتورة 2026.pdf')).toBeUndefined();
  });

  it.each([
    ['256 bytes', `${'a'.repeat(252)}.png`],
    ['256 bytes in 130 characters', `${'é'.repeat(126)}.png`],
    ['NUL', 'a\u0000.png'],
    ['a control character', 'a\u0007.png'],
    ['a line feed', 'a\n.png'],
    ['DEL', 'a\u007F.png'],
    ['a C1 control', 'a\u0085.png'],
    ['a right-to-left override', 'invoice\u202Egpj.exe'],
    ['an isolate', 'a\u2067b.png'],
    ['a right-to-left mark', 'a\u200Fb.png'],
    ['a left-to-right mark', 'a\u200Eb.png'],
    ['an Arabic letter mark', 'a\u061Cb.png'],
  ])('refuses %s with 400 VALIDATION_FAILED on the file field', (_label, name) => {
    expect(refusal(name)).toEqual({ code: 'VALIDATION_FAILED', fields: ['file'] });
  });
});
