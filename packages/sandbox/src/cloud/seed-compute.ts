/** Seed data for regions and zones, host images, bare-metal images, hosts and disks. */
import { DEFAULT_PROJECT, privateIp, publicIp, sid, unix, type Rec } from './seed-util.js';

/** Regions and zones served (GetRegion answers with all of them). */
export const ZONES: Record<string, { regionId: number; name: string; zones: string[] }> = {
  'cn-bj2': { regionId: 1000001, name: '华北一', zones: ['cn-bj2-02', 'cn-bj2-03', 'cn-bj2-04', 'cn-bj2-05'] },
  'cn-sh2': { regionId: 1000009, name: '上海二', zones: ['cn-sh2-01', 'cn-sh2-02', 'cn-sh2-03'] },
  hk: { regionId: 1000005, name: '香港', zones: ['hk-01', 'hk-02'] },
};

/** GetRegion entries: one per zone. */
export function seedRegions(): Rec[] {
  return Object.entries(ZONES).flatMap(([region, r]) =>
    r.zones.map((zone, i) => ({ RegionId: r.regionId, RegionName: r.name, Region: region, Zone: zone, IsDefault: region === 'cn-bj2' && i === 0, BitMaps: '' })),
  );
}

const BASE_IMAGES: [string, 'Linux' | 'Windows', string, number, string][] = [
  ['CentOS 7.9 64位', 'Linux', 'CentOS 7.9', 20, '2023-03-01'],
  ['Ubuntu 20.04 64位', 'Linux', 'Ubuntu 20.04', 20, '2023-05-10'],
  ['Ubuntu 22.04 64位', 'Linux', 'Ubuntu 22.04', 20, '2024-02-20'],
  ['Debian 12.0 64位', 'Linux', 'Debian 12.0', 20, '2024-01-15'],
  ['Rocky Linux 9.2 64位', 'Linux', 'Rocky 9.2', 20, '2023-09-01'],
  ['Windows 2019 数据中心版 64位', 'Windows', 'Windows 2019', 40, '2023-04-01'],
  ['Windows 2022 数据中心版 64位', 'Windows', 'Windows 2022', 40, '2024-03-01'],
];

const OTHER_IMAGES: [string, 'Business' | 'Custom', 'Linux' | 'Windows', string, string, string][] = [
  ['WordPress 6.4 on Ubuntu 22.04', 'Business', 'Linux', 'Ubuntu 22.04', '2024-04-02', 'Available'],
  ['Docker CE 24 on CentOS 7.9', 'Business', 'Linux', 'CentOS 7.9', '2024-01-20', 'Available'],
  ['web-golden-2024-05', 'Custom', 'Linux', 'Ubuntu 22.04', '2024-05-12', 'Available'],
  ['web-golden-2024-09', 'Custom', 'Linux', 'Ubuntu 22.04', '2024-09-03', 'Available'],
  ['batch-worker-2024-10', 'Custom', 'Linux', 'Rocky 9.2', '2024-10-21', 'Making'],
];

/** UHost images: base images in every zone, marketplace and custom images in some. */
export function seedHostImages(): Rec[] {
  const images: Rec[] = [];
  for (const [region, r] of Object.entries(ZONES)) {
    for (const zone of r.zones) {
      for (const [name, osType, osName, size, created] of BASE_IMAGES) {
        images.push(hostImage(region, zone, name, 'Base', osType, osName, size, created, 'Available'));
      }
      if (region === 'hk') continue;
      for (const [name, type, osType, osName, created, state] of OTHER_IMAGES) {
        images.push(hostImage(region, zone, name, type, osType, osName, 40, created, state));
      }
    }
  }
  return images;
}

function hostImage(region: string, zone: string, name: string, type: string, osType: string, osName: string, size: number, created: string, state: string): Rec {
  return {
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    ImageId: sid('uimage', `${zone}/${name}`),
    ImageName: name,
    ImageType: type,
    ImageSize: size,
    Zone: zone,
    OsType: osType,
    OsName: osName,
    Features: osType === 'Linux' ? ['NetEnhanced', 'HotPlug', 'CloudInit'] : ['NetEnhanced'],
    CreateTime: unix(`${created}T08:00:00Z`),
    ImageDescription: type === 'Base' ? `${osName} standard image` : `${name} (${type.toLowerCase()})`,
    State: state,
    FuncType: type.toLowerCase(),
    Vendor: type === 'Business' ? 'marketplace' : 'ucloud',
    MinimalCPU: osType === 'Windows' ? '2' : '1',
  };
}

const PHOST_IMAGES: [string, 'Base' | 'Custom', string, string, string[]][] = [
  ['CentOS 7.6 64位', 'Base', 'CentOS', 'CentOS 7.6', ['N1', 'N2', 'I2']],
  ['CentOS 7.9 64位', 'Base', 'CentOS', 'CentOS 7.9', ['N2', 'I2', 'G2']],
  ['Ubuntu 18.04 64位', 'Base', 'Ubuntu', 'Ubuntu 18.04', ['N1', 'N2']],
  ['Ubuntu 20.04 64位', 'Base', 'Ubuntu', 'Ubuntu 20.04', ['N2', 'I2', 'G2']],
  ['Windows 2016 64位', 'Base', 'Windows', 'Windows 2016', ['N2']],
  ['Windows 2019 64位', 'Base', 'Windows', 'Windows 2019', ['N2', 'I2']],
  ['db-node-golden', 'Custom', 'CentOS', 'CentOS 7.9', ['I2']],
  ['gpu-train-base', 'Custom', 'Ubuntu', 'Ubuntu 20.04', ['G2']],
];

/** Bare-metal images in two Beijing zones and one Shanghai zone. */
export function seedPhostImages(): Rec[] {
  const zones: [string, string][] = [
    ['cn-bj2', 'cn-bj2-02'],
    ['cn-bj2', 'cn-bj2-03'],
    ['cn-sh2', 'cn-sh2-02'],
  ];
  return zones.flatMap(([region, zone]) =>
    PHOST_IMAGES.map(([name, type, osType, osName, support], i) => ({
      Region: region,
      ProjectId: DEFAULT_PROJECT,
      Zone: zone,
      ImageId: sid('pimg', `${zone}/${name}`),
      ImageName: name,
      ImageType: type,
      ImageDescription: `${osName} for bare metal`,
      ImageSize: osType === 'Windows' ? 60 : 40,
      OsName: osName,
      OsType: osType,
      State: 'Available',
      Support: support,
      Version: `1.${i}`,
      CreateTime: unix(`2023-0${(i % 9) + 1}-15T10:00:00Z`),
    })),
  );
}

const HOSTS: [string, string, string, number, number, string, string, string][] = [
  // region, zone, name, cpu, memory MB, machine type, tag, state
  ['cn-bj2', 'cn-bj2-02', 'web-1', 2, 4096, 'N', 'web', 'Running'],
  ['cn-bj2', 'cn-bj2-02', 'web-2', 2, 4096, 'N', 'web', 'Running'],
  ['cn-bj2', 'cn-bj2-03', 'api-1', 4, 16384, 'O', 'api', 'Running'],
  ['cn-bj2', 'cn-bj2-03', 'batch-1', 8, 16384, 'N', 'batch', 'Stopped'],
  ['cn-bj2', 'cn-bj2-04', 'cache-1', 2, 16384, 'OM', 'cache', 'Running'],
  ['cn-bj2', 'cn-bj2-04', 'odd-1', 3, 5120, 'N', 'Default', 'Running'],
  ['cn-sh2', 'cn-sh2-02', 'web-sh-1', 2, 4096, 'N', 'web', 'Running'],
  ['cn-sh2', 'cn-sh2-03', 'report-1', 4, 8192, 'O', 'Default', 'Running'],
];

/** UHost instances with private and public addresses and their disks. */
export function seedHosts(): Rec[] {
  return HOSTS.map(([region, zone, name, cpu, memory, machineType, tag, state], i) => {
    const id = sid('uhost', name);
    return {
      Region: region,
      ProjectId: DEFAULT_PROJECT,
      UHostId: id,
      Zone: zone,
      Name: name,
      CPU: cpu,
      Memory: memory,
      MachineType: machineType,
      ChargeType: i % 3 === 0 ? 'Year' : i % 3 === 1 ? 'Month' : 'Dynamic',
      AutoRenew: i % 2 === 0 ? 'Yes' : 'No',
      Remark: `${tag} tier`,
      Tag: tag,
      State: state,
      CreateTime: unix(`2024-0${(i % 8) + 1}-10T03:00:00Z`),
      ExpireTime: unix(`2026-0${(i % 8) + 1}-10T03:00:00Z`),
      IPSet: [
        {
          IPMode: 'IPv4',
          IP: privateIp(name),
          Type: 'Private',
          VPCId: sid('uvnet', `${region}/prod`),
          SubnetId: sid('subnet', `${region}/prod-a`),
          Mac: `52:54:00:${(10 + i).toString(16)}:aa:01`,
          Bandwidth: 0,
        },
        ...(tag === 'web' ? [{ IPMode: 'IPv4', IP: publicIp(name), Type: 'BGP', Bandwidth: 5 }] : []),
      ],
      DiskSet: [
        { DiskId: sid('bsi', `${name}/boot`), DiskType: 'CLOUD_SSD', Size: 40, IsBoot: 'True', Type: 'Boot', Drive: 'vda' },
        { DiskId: sid('bsi', `${name}/data`), DiskType: 'CLOUD_RSSD', Size: 100, IsBoot: 'False', Type: 'Data', Drive: 'vdb' },
      ],
    };
  });
}

const DISKS: [string, string, string, number, string, string][] = [
  ['cn-bj2', 'cn-bj2-02', 'web-data-1', 100, 'DataDisk', 'InUse'],
  ['cn-bj2', 'cn-bj2-02', 'web-data-2', 100, 'SSDDataDisk', 'InUse'],
  ['cn-bj2', 'cn-bj2-03', 'api-boot', 40, 'SSDSystemDisk', 'InUse'],
  ['cn-bj2', 'cn-bj2-03', 'api-logs', 500, 'RSSDDataDisk', 'InUse'],
  ['cn-bj2', 'cn-bj2-03', 'batch-boot', 40, 'SystemDisk', 'InUse'],
  ['cn-bj2', 'cn-bj2-04', 'scratch-1', 200, 'DataDisk', 'Available'],
  ['cn-bj2', 'cn-bj2-04', 'scratch-2', 200, 'SSDDataDisk', 'Available'],
  ['cn-sh2', 'cn-sh2-02', 'web-sh-data', 100, 'SSDDataDisk', 'InUse'],
  ['cn-sh2', 'cn-sh2-03', 'report-archive', 1000, 'DataDisk', 'Available'],
];

/** Cloud disks of every type. */
export function seedDisks(): Rec[] {
  return DISKS.map(([region, zone, name, size, type, status], i) => ({
    Region: region,
    ProjectId: DEFAULT_PROJECT,
    UDiskId: sid('bsm', name),
    Name: name,
    Zone: zone,
    Size: size,
    DiskType: type,
    ChargeType: i % 2 === 0 ? 'Month' : 'Dynamic',
    Tag: name.split('-')[0],
    Status: status,
    CreateTime: unix(`2024-0${(i % 9) + 1}-05T12:00:00Z`),
    ExpiredTime: unix(`2026-0${(i % 9) + 1}-05T12:00:00Z`),
    UHostId: status === 'InUse' ? sid('uhost', name.split('-')[0]) : '',
    IsBoot: type.includes('System') ? 'true' : 'false',
    DeviceName: status === 'InUse' ? '/dev/vdc' : '',
  }));
}
