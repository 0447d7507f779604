import fc from 'fast-check';
import { addressKey } from './address-key';

describe('addressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::ffff:c000:201', '192.0.2.1'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('keys %s as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
  it('keys every address of one /64 alike, however written, and two /64s apart', () => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 4, maxLength: 4 }), fc.array(group, { minLength: 4, maxLength: 4 }), fc.array(group, { minLength: 4, maxLength: 4 }), (prefix, a, b) => {
        fc.pre(!(prefix.slice(0, 4).every((g) => g === '0')));
        const one = addressKey([...prefix, ...a].join(':'));
        expect(addressKey([...prefix, ...b].join(':').toUpperCase())).toBe(one);
        const other = [...prefix];
        other[3] = ((parseInt(other[3], 16) + 1) & 0xffff).toString(16);
        expect(addressKey([...other, ...a].join(':'))).not.toBe(one);
      }),
    );
  });
});
