import { redact } from './delivery-processor';

describe('redact: an endpoint named in a notice about it', () => {
  it('shows the host and the path without its last segment, where receivers keep their secret', () => {
    expect(redact('https://discord.com/api/webhooks/123456/s3cr3t-t0ken')).toBe('https://discord.com/api/webhooks/123456/…');
    expect(redact('https://hooks.example.org/in/s3cr3t')).toBe('https://hooks.example.org/in/…');
    expect(redact('https://example.org/s3cr3t')).toBe('https://example.org/…');
    expect(redact('https://example.org/a/b/c/d/s3cr3t')).toBe('https://example.org/a/b/c/…');
  });

  it('shows no query, credentials or fragment, and a bare address as it is', () => {
    expect(redact('https://user:pw@example.org/hook?key=s3cr3t#x')).toBe('https://example.org/…');
    expect(redact('https://example.org/')).toBe('https://example.org');
    expect(redact('not a url')).toBe('an invalid URL');
  });
});
