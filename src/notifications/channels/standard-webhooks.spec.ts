import { createHmac } from 'node:crypto';
import { isWebhookSecret, newWebhookSecret, sign, signatureHeader, verify } from './standard-webhooks';

describe('Standard Webhooks signing', () => {
  // The example from the Standard Webhooks specification's reference libraries.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('signs like the reference implementation', () => {
    expect(sign(secret, id, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is HMAC-SHA256 over id.timestamp.body with the decoded secret', () => {
    const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64');
    expect(sign(secret, id, timestamp, body)).toBe(`v1,${expected}`);
  });

  it('verifies any one of several signatures, within the time tolerance', () => {
    const other = newWebhookSecret();
    const header = signatureHeader([other, secret], id, timestamp, body);
    expect(header.split(' ')).toHaveLength(2);
    expect(verify(secret, { id, timestamp: String(timestamp), signature: header }, body, timestamp + 10)).toBe(true);
    expect(verify(other, { id, timestamp: String(timestamp), signature: header }, body, timestamp)).toBe(true);
    expect(verify(secret, { id, timestamp: String(timestamp), signature: header }, body + ' ', timestamp)).toBe(false);
    expect(verify(secret, { id, timestamp: String(timestamp), signature: header }, body, timestamp + 301)).toBe(false);
    expect(verify(newWebhookSecret(), { id, timestamp: String(timestamp), signature: header }, body, timestamp)).toBe(false);
  });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const s = newWebhookSecret();
    expect(isWebhookSecret(s)).toBe(true);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(s);
  });
});
