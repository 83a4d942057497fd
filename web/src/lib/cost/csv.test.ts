import { afterEach, describe, expect, it, vi } from 'vitest';
import { datedFileName, downloadFile, escapeCsvCell, toCsv } from './csv';

describe('escapeCsvCell', () => {
  it.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1234', "'+1234"],
    ['-10', "'-10"],
    ['@cmd', "'@cmd"],
  ])('neutralises a formula start: %s', (input, expected) => {
    expect(escapeCsvCell(input)).toBe(expected);
  });

  it('writes numbers as they are, negative ones too', () => {
    expect(escapeCsvCell(-12.5)).toBe('-12.5');
    expect(escapeCsvCell(0)).toBe('0');
    expect(escapeCsvCell(Number.NaN)).toBe('');
  });

  it('strips control characters', () => {
    expect(escapeCsvCell('Amazon\u0000EC2\u0007\u001b\u007f')).toBe('AmazonEC2');
    expect(escapeCsvCell('a\tb')).toBe('ab');
  });

  it('strips a control character before looking for a formula start', () => {
    expect(escapeCsvCell('\u0001=1+1')).toBe("'=1+1");
  });

  it('doubles quotes and quotes the cell', () => {
    expect(escapeCsvCell('say "hi"')).toBe('"say ""hi"""');
  });

  it('quotes cells with a comma or a line break', () => {
    expect(escapeCsvCell('us-east-1, eu-west-1')).toBe('"us-east-1, eu-west-1"');
    expect(escapeCsvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(escapeCsvCell('line\r\nbreak')).toBe('"line\r\nbreak"');
  });

  it('quotes a neutralised formula that holds a comma', () => {
    expect(escapeCsvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
  });

  it('writes nothing for null and undefined, and text for other values', () => {
    expect(escapeCsvCell(null)).toBe('');
    expect(escapeCsvCell(undefined)).toBe('');
    expect(escapeCsvCell(true)).toBe('true');
    expect(escapeCsvCell('AmazonEC2')).toBe('AmazonEC2');
  });
});

describe('toCsv', () => {
  it('writes the header and one line per row', () => {
    expect(
      toCsv(
        ['Date', 'Service', 'Cost'],
        [
          ['2026-11-01', 'AmazonEC2', 12.5],
          ['2026-11-02', '=cmd', -3],
        ],
      ),
    ).toBe("Date,Service,Cost\n2026-11-01,AmazonEC2,12.5\n2026-11-02,'=cmd,-3\n");
  });
});

describe('datedFileName', () => {
  it('names the file after the UTC day', () => {
    expect(datedFileName('cost-analysis', 'csv', new Date('2026-11-23T23:59:00.000Z'))).toBe('cost-analysis-2026-11-23.csv');
    expect(datedFileName('cost-data', '.json', new Date('2026-01-01T00:00:00.000Z'))).toBe('cost-data-2026-01-01.json');
  });
});

describe('downloadFile', () => {
  const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
  afterEach(() => {
    vi.restoreAllMocks();
    Object.assign(URL, original);
  });

  it('clicks a link that downloads the content under the file name', async () => {
    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:cost';
    });
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });

    downloadFile('cost-analysis-2026-11-23.csv', 'a,b\n', 'text/csv;charset=utf-8');

    expect(clicked).toEqual([{ href: 'blob:cost', download: 'cost-analysis-2026-11-23.csv' }]);
    expect(created[0].type).toBe('text/csv;charset=utf-8');
    expect(await created[0].text()).toBe('a,b\n');
    await vi.waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:cost'));
  });
});
