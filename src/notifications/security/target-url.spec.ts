import { BadInputError } from '../../common/errors';
import { checkTargetUrl, isPrivateAddress, parseIPv6, ResolveAll } from './target-url';

const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'rebind.example.com': ['93.184.216.34', '10.0.0.5'],
  'v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
  localhost: ['127.0.0.1', '::1'],
};
/** A resolver from a table: these tests never send a DNS query. */
const resolve: ResolveAll = async (host) => (dns[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const strict = { allowPrivate: false, resolve };

async function refusal(url: string, kind: 'webhook' | 'discord' = 'webhook'): Promise<string> {
  try {
    await checkTargetUrl(url, kind, strict);
  } catch (err) {
    expect(err).toBeInstanceOf(BadInputError);
    return (err as BadInputError).code;
  }
  throw new Error(`${url} was accepted`);
}

describe('private addresses', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', '2001:db8::1', 'not-an-ip',
    // SIIT-translated and local-use NAT64 (RFC 8215) forms of 127.0.0.1, 10.0.0.1 and a public address.
    '::ffff:0:7f00:1', '::ffff:0:a00:1', '::ffff:0:127.0.0.1', '64:ff9b:1::7f00:1', '64:ff9b:1::a00:1', '64:ff9b:1:5db8:d8:2200::',
  ])('%s is private', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34', '::ffff:0:5db8:d822', '64:ff9b::5db8:d822', '2002:5db8:d822::'])(
    '%s is public',
    (ip) => expect(isPrivateAddress(ip)).toBe(false),
  );

  it('parses IPv6 forms', () => {
    expect(parseIPv6('::1')).toEqual([...Array(15).fill(0), 1]);
    expect(parseIPv6('::ffff:1.2.3.4')!.slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIPv6('1::2::3')).toBeNull();
  });
});

describe('checkTargetUrl with the guard on', () => {
  it.each([
    'http://127.0.0.1:8080/hook', 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/',
    'http://100.64.1.1/', 'http://[fd00::1]/', 'http://0.0.0.0/', 'http://2130706433/', 'http://0x7f.1/', 'http://localhost:3000/', 'https://rebind.example.com/',
  ])('refuses %s as private', async (url) => expect(await refusal(url)).toBe('notifications/private_target'));

  it.each(['file:///etc/passwd', 'ftp://hooks.example.com/', 'javascript:alert(1)', 'gopher://hooks.example.com/', 'not a url', 'https://user:pw@hooks.example.com/'])(
    'refuses %s as not an http(s) URL',
    async (url) => expect(await refusal(url)).toBe('notifications/invalid_url'),
  );

  // Two answers would make the check a DNS oracle: which names the server resolves to inside addresses.
  it('refuses a host that does not resolve as it refuses one that resolves to a private address', async () => {
    const answer = (url: string) => checkTargetUrl(url, 'webhook', strict).then(
      () => null,
      (err: BadInputError) => ({ code: err.code, message: err.message, details: err.details }),
    );
    const unresolvable = await answer('https://nowhere.example.com/hook');
    expect(unresolvable).toEqual(await answer('https://rebind.example.com/hook'));
    expect(unresolvable).toEqual(await answer('http://localhost/hook'));
    expect(unresolvable).toMatchObject({ code: 'notifications/private_target', message: 'The URL\'s host must resolve to a public address.' });
  });

  it('accepts public targets', async () => {
    await expect(checkTargetUrl('https://hooks.example.com/fieldpost?x=1', 'webhook', strict)).resolves.toBeInstanceOf(URL);
    await expect(checkTargetUrl('http://93.184.216.34/', 'webhook', strict)).resolves.toBeInstanceOf(URL);
    await expect(checkTargetUrl('https://v6.example.com/', 'webhook', strict)).resolves.toBeInstanceOf(URL);
  });

  // The README counts length limits in characters (code points), as the OpenAPI maxLength does: a
  // path of 1,100 emoji is 1,128 characters, but 2,228 UTF-16 units, and was refused as over 2,048.
  it('counts the length of a URL in characters, not UTF-16 units', async () => {
    const base = 'https://hooks.example.com/';
    await expect(checkTargetUrl(base + '\u{1F40A}'.repeat(1100), 'webhook', strict)).resolves.toBeInstanceOf(URL);
    await expect(checkTargetUrl(base + 'a'.repeat(2048 - base.length), 'webhook', strict)).resolves.toBeInstanceOf(URL);
    expect(await refusal(base + '\u{1F40A}'.repeat(2049 - base.length))).toBe('notifications/invalid_url');
  });

  it('takes only Discord webhook URLs for Discord', async () => {
    expect(await refusal('https://hooks.example.com/api/webhooks/1/abc', 'discord')).toBe('notifications/invalid_discord_url');
    expect(await refusal('http://discord.com/api/webhooks/1/abc', 'discord')).toBe('notifications/invalid_discord_url');
    expect(await refusal('https://discord.com/channels/1', 'discord')).toBe('notifications/invalid_discord_url');
    const ok: ResolveAll = async () => [{ address: '162.159.128.233', family: 4 }];
    await expect(checkTargetUrl('https://discord.com/api/webhooks/123/tok', 'discord', { allowPrivate: false, resolve: ok })).resolves.toBeInstanceOf(URL);
  });

  it('lets anything http(s) through when the server allows private targets, but never other schemes', async () => {
    const open = { allowPrivate: true, resolve };
    await expect(checkTargetUrl('http://127.0.0.1:9/', 'webhook', open)).resolves.toBeInstanceOf(URL);
    await expect(checkTargetUrl('http://127.0.0.1:9/', 'discord', open)).resolves.toBeInstanceOf(URL);
    await expect(checkTargetUrl('file:///etc/passwd', 'webhook', open)).rejects.toBeInstanceOf(BadInputError);
  });
});
