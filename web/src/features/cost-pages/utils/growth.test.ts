import { servicesGrowing } from './growth';

describe('servicesGrowing', () => {
  it('keeps services that grew more than 25 %, largest increase first', () => {
    const grown = servicesGrowing(
      [
        { name: 'AmazonEC2', amount: 130 },
        { name: 'AmazonS3', amount: 125 },
        { name: 'BigQuery', amount: 400 },
        { name: 'AmazonRDS', amount: 50 },
      ],
      [
        { name: 'AmazonEC2', amount: 100 },
        { name: 'AmazonS3', amount: 100 },
        { name: 'BigQuery', amount: 200 },
        { name: 'AmazonRDS', amount: 80 },
      ],
    );
    expect(grown).toEqual([
      { service: 'BigQuery', previous: 200, current: 400, percent: 100 },
      { service: 'AmazonEC2', previous: 100, current: 130, percent: 30 },
    ]);
  });

  it('does not count exactly 25 %', () => {
    expect(servicesGrowing([{ name: 'S3', amount: 125 }], [{ name: 'S3', amount: 100 }])).toEqual([]);
  });

  it('reports spend on a service that had none before as new', () => {
    expect(servicesGrowing([{ name: 'Cloud Run', amount: 12 }], [])).toEqual([
      { service: 'Cloud Run', previous: 0, current: 12, percent: null },
    ]);
  });

  it('ignores services that only carry credits', () => {
    expect(servicesGrowing([{ name: 'Credits', amount: -5 }], [{ name: 'Credits', amount: -50 }])).toEqual([]);
  });

  it('adds up rows of the same service', () => {
    expect(
      servicesGrowing(
        [
          { name: 'AmazonEC2', amount: 80 },
          { name: 'AmazonEC2', amount: 80 },
        ],
        [{ name: 'AmazonEC2', amount: 100 }],
      ),
    ).toEqual([{ service: 'AmazonEC2', previous: 100, current: 160, percent: 60 }]);
  });
});
