import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it('drops the whole query of a signed route', () => {
    expect(redactUrl('/api/files/signed/uploads/file/u/a.pdf?expires=1&signature=abc')).toBe('/api/files/signed/uploads/file/u/a.pdf?[redacted]');
  });

  it('drops the value of every credential parameter elsewhere, whatever its case or encoding', () => {
    expect(redactUrl('/api/x?page=2&Token=abc&%73ignature=def&X-Amz-Signature=ghi')).toBe('/api/x?page=2&Token=[redacted]&%73ignature=[redacted]&X-Amz-Signature=[redacted]');
  });

  it('leaves other urls as they are', () => {
    expect(redactUrl('/api/users?page=2&limit=10')).toBe('/api/users?page=2&limit=10');
    expect(redactUrl('/api/files/signed/a.pdf')).toBe('/api/files/signed/a.pdf');
  });
});
