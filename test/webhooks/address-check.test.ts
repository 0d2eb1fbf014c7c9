import { describe, expect, it } from 'vitest';
import { refusedAddress, refusedUrl } from '../../src/webhooks/address-check.ts';

describe('the webhook address check', () => {
  it('refuses every loopback, private, link-local, multicast, unspecified and metadata address, in every spelling', () => {
    const refused = [
      '127.0.0.1',
      '127.255.255.254',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '169.254.0.1',
      '100.64.0.1',
      '100.100.100.200',
      '0.0.0.0',
      '0.1.2.3',
      '224.0.0.251',
      '239.255.255.250',
      '255.255.255.255',
      '198.18.0.1',
      '::',
      '::1',
      '[::1]',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      'fec0::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:10.0.0.1',
      '::ffff:169.254.169.254',
      '0:0:0:0:0:ffff:c0a8:0101',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '::127.0.0.1',
      '2001:db8::1',
      'not-an-address',
      '1.2.3',
      '::ffff:999.0.0.1',
    ];
    for (const a of refused) expect(refusedAddress(a), a).not.toBeNull();
  });

  it('lets public addresses through, including public IPv4 inside IPv6', () => {
    const allowed = [
      '93.184.216.34',
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ];
    for (const a of allowed) expect(refusedAddress(a), a).toBeNull();
  });

  it('names the reason', () => {
    expect(refusedAddress('127.0.0.1')).toMatch(/loopback/);
    expect(refusedAddress('::ffff:127.0.0.1')).toMatch(/loopback.*IPv6/);
    expect(refusedAddress('169.254.169.254')).toMatch(/metadata/);
    expect(refusedAddress('fd00:ec2::254')).toMatch(/private/);
  });

  it('judges URLs by scheme and literal host; names are left to connect time', () => {
    const strict = { allowHttp: false, allowPrivate: false };
    expect(refusedUrl('https://hooks.example.com/x', strict)).toBeNull();
    expect(refusedUrl('https://hooks.example.test/x', strict)).toBeNull();
    expect(refusedUrl('http://hooks.example.com/x', strict)).toMatch(/https/);
    expect(refusedUrl('https://0x7f.1/x', strict)).toMatch(/loopback/);
    expect(refusedUrl('https://[::ffff:a9fe:a9fe]/x', strict)).toMatch(/metadata/);
    expect(refusedUrl('https://LOCALHOST./x', strict)).toMatch(/local machine/);
    expect(refusedUrl('http://127.0.0.1/x', { allowHttp: true, allowPrivate: false })).toMatch(/loopback/);
    expect(refusedUrl('http://127.0.0.1/x', { allowHttp: true, allowPrivate: true })).toBeNull();
    expect(refusedUrl('file:///etc/passwd', { allowHttp: true, allowPrivate: true })).toMatch(/http/);
  });
});
