import { isLoopbackAddress, isSpecialUseAddress } from './special-use-addresses';

describe('special-use addresses (RFC 6890)', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.1.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
    '192.0.2.10', '198.51.100.7', '203.0.113.9', '198.18.0.1', '192.0.0.8', '192.88.99.1',
    '::1', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:8.8.8.8', '::127.0.0.1', '64:ff9b::a00:1', 'fc00::1', 'fd12:3456::1',
    'fe80::1', 'fec0::1', 'ff02::1', '2001:db8::1', '2001::1', '2002:a00:1::1', '3fff::1', '100::1', '1::1', '4000::1',
    'not an address', 'localhost', '',
  ])('refuses %s', (address) => {
    expect(isSpecialUseAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '100.63.255.255', '100.128.0.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '2a00:1450:4001::200e'])(
    'allows the public address %s',
    (address) => {
      expect(isSpecialUseAddress(address)).toBe(false);
    },
  );

  it('tells loopback apart', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(false);
  });
});
