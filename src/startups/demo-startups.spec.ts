import { INDUSTRY_NAMES } from '../database/migrations/1763700000001-seed-industries';
import { FIRST_FOUNDED_YEAR, generateDemoStartups, LAST_FOUNDED_YEAR, slugify } from './demo-startups';
import { foldName } from '../common/text/name-folding';

describe('demo startups', () => {
  const startups = generateDemoStartups(3000);

  it('are the same on every run, and a shorter run is a prefix of a longer one', () => {
    expect(generateDemoStartups(3000)).toEqual(startups);
    expect(generateDemoStartups(200)).toEqual(startups.slice(0, 200));
    expect(generateDemoStartups(0)).toEqual([]);
  });

  it('have unique slugs and names', () => {
    expect(new Set(startups.map((s) => s.slug)).size).toBe(startups.length);
    expect(new Set(startups.map((s) => s.name)).size).toBe(startups.length);
  });

  it('fit the schema and the contract', () => {
    for (const s of startups) {
      expect(s.name.length).toBeLessThanOrEqual(200);
      expect(s.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(s.sortName).toBe(foldName(s.name));
      expect(s.foundedYear).toBeGreaterThanOrEqual(FIRST_FOUNDED_YEAR);
      expect(s.foundedYear).toBeLessThanOrEqual(LAST_FOUNDED_YEAR);
      expect(INDUSTRY_NAMES).toContain(s.industry);
      if (s.website !== null) expect(s.website).toMatch(/^https:\/\/[a-z0-9]+\.[a-z.]+$/);
      expect(s.description).toContain(s.name);
    }
  });

  it('look like the Turkish ecosystem', () => {
    const cities = new Set(startups.map((s) => s.city));
    for (const city of ['İstanbul', 'Ankara', 'İzmir']) expect(cities).toContain(city);
    expect(startups.filter((s) => s.city === 'İstanbul').length).toBeGreaterThan(startups.length / 3);
    expect(new Set(startups.map((s) => s.industry)).size).toBe(INDUSTRY_NAMES.length);
    expect(new Set(startups.map((s) => s.foundedYear)).size).toBe(LAST_FOUNDED_YEAR - FIRST_FOUNDED_YEAR + 1);
  });

  it('slugify transliterates Turkish letters', () => {
    expect(slugify('Çınar Şahin Öğüt İş')).toBe('cinar-sahin-ogut-is');
    expect(slugify('100% Organik')).toBe('100-organik');
  });
});
