import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress, urlProblem } from '../../src/webhooks/addresses.ts';
import { postJson } from '../../src/webhooks/send.ts';
import { sign } from '../../src/webhooks/signature.ts';
import { startReceiver, type Receiver } from './receiver.ts';

describe('private addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.10.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['100.128.0.1', false],
    ['0.0.0.0', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['::1', true],
    ['::', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', true],
    ['febf::1', true],
    ['fec0::1', true],
    ['fd00:ec2::254', true],
    ['64:ff9b::a00:1', true],
    ['2002:c0a8:101::1', true],
    ['::7f00:1', true],
    ['192.0.0.192', true],
    ['2001:4860:4860::8888', false],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:192.168.1.1', true],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::808:808', false],
    ['example.com', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});

describe('webhook URLs', () => {
  it.each([
    ['https://hooks.example.com/a', false, null],
    ['https://93.184.216.34/a', false, null],
    ['http://hooks.example.com/a', false, 'must be an https URL'],
    ['http://hooks.example.com/a', true, null],
    ['http://127.0.0.1:8080/a', true, null],
    ['https://localhost/a', true, null],
    ['https://localhost/a', false, 'must not point to a private, loopback or link-local address'],
    ['https://LOCALHOST./a', false, 'must not point to a private, loopback or link-local address'],
    ['https://0x7f.1/a', false, 'must not point to a private, loopback or link-local address'],
    ['https://[::ffff:a00:1]/a', false, 'must not point to a private, loopback or link-local address'],
    ['http://169.254.169.254/latest/meta-data/', true, 'must not point to a private, loopback or link-local address'],
    ['https://[fd00:ec2::254]/a', false, 'must not point to a private, loopback or link-local address'],
    ['ws://hooks.example.com/a', true, 'must be an http(s) URL'],
    ['hooks.example.com', false, 'must be a valid URL'],
    ['https://a:b@hooks.example.com/', true, 'must not carry a user name or password (send credentials as a custom header)'],
  ])('%s (private allowed: %s) → %s', (url, allowPrivate, problem) => {
    expect(urlProblem(url, allowPrivate)).toBe(problem);
  });
});

describe('sending', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('refuses a name that resolves to a loopback address when private destinations are not allowed', async () => {
    const sent = await postJson('https://localhost:1/hook', {}, '{}', { timeoutMs: 2_000, allowPrivate: false });
    expect(sent).toMatchObject({ status: null, refused: true });
    expect(sent.error).toMatch(/^refused to connect: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
  });

  it('refuses a private literal address before connecting', async () => {
    const sent = await postJson(receiver.url('/never'), {}, '{}', { timeoutMs: 2_000, allowPrivate: false });
    expect(sent).toMatchObject({ status: null, refused: true });
    expect(receiver.on('/never')).toHaveLength(0);
  });

  it('posts the body with the headers and reads the status and Retry-After when allowed', async () => {
    receiver.script('/ok', [{ status: 429, headers: { 'Retry-After': '7' } }]);
    const sent = await postJson(`http://localhost:${new URL(receiver.url('/')).port}/ok`, { 'x-a': '1', 'content-type': 'application/json' }, '{"a":1}', { timeoutMs: 2_000, allowPrivate: true });
    expect(sent).toMatchObject({ status: 429, error: null, refused: false, retryAfter: '7' });
    const [request] = receiver.on('/ok');
    expect(request!.body).toBe('{"a":1}');
    expect(request!.headers).toMatchObject({ 'x-a': '1', 'content-length': '7' });
  });
});

describe('signatures', () => {
  it('match the Standard Webhooks reference example', () => {
    // From the Standard Webhooks specification's reference implementations.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
