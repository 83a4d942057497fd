import { isOnDemandUsage, previousGenerationFamily } from './saving-rules';

describe('previousGenerationFamily', () => {
  it.each([
    ['BoxUsage:t2.micro', 't2'],
    ['USW2-BoxUsage:m4.large', 'm4'],
    ['EU-BoxUsage:c4.2xlarge', 'c4'],
    ['SpotUsage:r4.xlarge', 'r4'],
    ['HeavyUsage:m3.medium', 'm3'],
    ['InstanceUsage:db.m4.large', 'm4'],
    ['EU-Multi-AZUsage:db.r3.xlarge', 'r3'],
    ['NodeUsage:cache.t2.small', 't2'],
  ])('names the AWS family of %s', (usageType, family) => {
    expect(previousGenerationFamily('aws', usageType)).toBe(family);
  });

  it.each(['BoxUsage:m5.large', 'EU-BoxUsage:c5.xlarge', 'InstanceUsage:db.r5.large', 'BoxUsage:t3.micro', 'BoxUsage:m6g.large', 'EBS:VolumeUsage.gp3', 'TimedStorage-ByteHrs', 'CW:MetricMonitorUsage'])(
    'leaves the current AWS usage type %s alone',
    (usageType) => {
      expect(previousGenerationFamily('aws', usageType)).toBeNull();
    },
  );

  it('finds GCP N1, f1-micro and g1-small SKUs and not N2', () => {
    expect(previousGenerationFamily('gcp', 'N1 Predefined Instance Core running in Americas')).toBe('N1');
    expect(previousGenerationFamily('gcp', 'Preemptible N1 Predefined Instance Ram running in EMEA')).toBe('N1');
    expect(previousGenerationFamily('gcp', 'Micro Instance with burstable CPU running in Americas')).toBe('F1');
    expect(previousGenerationFamily('gcp', 'Small Instance with 1 VCPU running in EMEA')).toBe('G1');
    expect(previousGenerationFamily('gcp', 'N2 Instance Core running in Americas')).toBeNull();
    expect(previousGenerationFamily('gcp', 'Storage PD Capacity')).toBeNull();
  });

  it('finds Azure first-generation series and not versioned ones', () => {
    expect(previousGenerationFamily('azure', 'A2')).toBe('A');
    expect(previousGenerationFamily('azure', 'D3')).toBe('D');
    expect(previousGenerationFamily('azure', 'DS12 Low Priority')).toBe('DS');
    expect(previousGenerationFamily('azure', 'Standard_GS4')).toBe('GS');
    expect(previousGenerationFamily('azure', 'NC6')).toBe('NC');
    expect(previousGenerationFamily('azure', 'D4s v5')).toBeNull();
    expect(previousGenerationFamily('azure', 'A2 v2')).toBeNull();
    expect(previousGenerationFamily('azure', 'P1 v3 App')).toBeNull();
  });

  it('knows no rule for other providers', () => {
    expect(previousGenerationFamily('oracle', 'BoxUsage:t2.micro')).toBeNull();
  });
});

describe('isOnDemandUsage', () => {
  it('finds AWS instance hours at on-demand rates', () => {
    expect(isOnDemandUsage('aws', 'BoxUsage:m5.large')).toBe(true);
    expect(isOnDemandUsage('aws', 'EU-BoxUsage:c5.xlarge')).toBe(true);
    expect(isOnDemandUsage('aws', 'USW2-InstanceUsage:db.r5.large')).toBe(true);
    expect(isOnDemandUsage('aws', 'NodeUsage:cache.m5.large')).toBe(true);
    expect(isOnDemandUsage('aws', 'BoxUsage')).toBe(true);
  });

  it('leaves AWS spot, storage and request usage alone', () => {
    expect(isOnDemandUsage('aws', 'SpotUsage:c5.xlarge')).toBe(false);
    expect(isOnDemandUsage('aws', 'EBS:VolumeUsage.gp3')).toBe(false);
    expect(isOnDemandUsage('aws', 'Lambda-GB-Second')).toBe(false);
    expect(isOnDemandUsage('aws', 'ComputeSP:1yrNoUpfront')).toBe(false);
  });

  it('finds GCP instance cores and memory without commitment or preemptible price', () => {
    expect(isOnDemandUsage('gcp', 'N2 Instance Core running in Americas')).toBe(true);
    expect(isOnDemandUsage('gcp', 'N2 Instance Ram running in Americas')).toBe(true);
    expect(isOnDemandUsage('gcp', 'Commitment v1: N2 Cpu in Americas for 1 Year')).toBe(false);
    expect(isOnDemandUsage('gcp', 'Spot Preemptible N2 Instance Core running in Americas')).toBe(false);
    expect(isOnDemandUsage('gcp', 'Storage PD Capacity')).toBe(false);
  });

  it('has no Azure rule: a meter name alone does not say whether a VM is reserved', () => {
    expect(isOnDemandUsage('azure', 'D4s v5')).toBe(false);
  });
});
