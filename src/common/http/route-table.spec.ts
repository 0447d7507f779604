import { RouteTable } from './route-table';

describe('RouteTable', () => {
  const sut = new RouteTable();
  sut.add(['GET', 'HEAD'], '/api/public/v1/industries/:id');
  sut.add('POST', '/oauth/token');
  sut.add('OPTIONS', '*');

  it('lists the methods of a known path, parameters included', () => {
    expect(sut.allowedMethods('/api/public/v1/industries/7')).toEqual(['GET', 'HEAD']);
    expect(sut.allowedMethods('/oauth/token')).toEqual(['POST']);
  });

  it('knows nothing of unknown paths, despite a catch-all route', () => {
    expect(sut.allowedMethods('/elsewhere')).toEqual([]);
  });
});
